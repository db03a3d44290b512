/**
 * The /data endpoints of Sanity's HTTP API over one lake: queries, documents by id, mutations, actions,
 * the listener, live events, history, references and export. Each gets the request checked up to the
 * dataset and answers a Response; a failure is thrown as a LakeError in Sanity's shape.
 */
import { readBody } from '@school-site/guards';
import { isContentId, isPublishedId, type SanityDocument } from './documents.ts';
import { httpError, lakeError } from './errors.ts';
import { parsePerspective, type Perspective } from './perspectives.ts';
import type { Params } from './queries.ts';
import { decodeId, json, type DataRequest } from './request.ts';

/** Studio batches and imports stay far below this; a body over it is refused before it is read. */
export const MAX_LAKE_BODY = 1024 * 1024;
/** Far deeper than a schema's documents go; much deeper JSON overflows the stack of the code that walks it. */
const MAX_JSON_DEPTH = 100;

/** Refuses a value nested deeper than MAX_JSON_DEPTH, walked without recursion for that very reason. */
function refuseDeepNesting<T>(value: T, what: string): T {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > MAX_JSON_DEPTH) throw httpError(400, 'Bad Request', `${what} is nested more than ${MAX_JSON_DEPTH} levels deep`);
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return value;
}

export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const read = await readBody(request, MAX_LAKE_BODY);
  if (!read.ok)
    throw read.refusal === 'too-large'
      ? httpError(413, 'Payload Too Large', `Request bodies are limited to ${MAX_LAKE_BODY} bytes`)
      : httpError(400, 'Bad Request', 'The request body could not be read');
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch {
    throw httpError(400, 'Bad Request', 'The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw httpError(400, 'Bad Request', 'The request body must be a JSON object');
  return refuseDeepNesting(body as Record<string, unknown>, 'The request body');
}

/** GET query parameters: `$name=<JSON>`, refused as Sanity refuses an unquoted string. */
export function paramsOf(search: URLSearchParams): Params {
  const params: Params = {};
  for (const [key, value] of search) {
    if (!key.startsWith('$')) continue;
    try {
      params[key.slice(1)] = JSON.parse(value);
    } catch {
      throw lakeError(400, 'httpBadRequest', `Unable to parse value of "${key}=${value}". Please quote string values.`);
    }
  }
  return refuseDeepNesting(params, 'A query parameter');
}

export function perspectiveOf(value: string | null, apiVersion: string): Perspective {
  try {
    return parsePerspective(value, apiVersion);
  } catch (error) {
    throw lakeError(400, 'httpBadRequest', (error as Error).message);
  }
}

/** A transaction id the client chose (the Studio's own, which the listener must echo), or none. */
export function transactionIdOf(body: Record<string, unknown>): string | undefined {
  const id = body.transactionId;
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || !/^[\w.-]{1,128}$/.test(id))
    throw lakeError(400, 'httpBadRequest', '"transactionId" must be a string of letters, digits, "-", "_" or "." (at most 128)');
  return id;
}

export async function queryEndpoint({ lake, request, url, cors, apiVersion, authenticated }: DataRequest) {
  const body = request.method === 'POST' ? await readJson(request) : {};
  const text = request.method === 'POST' ? body.query : url.searchParams.get('query');
  const params = request.method === 'POST' ? (body.params ?? {}) : paramsOf(url.searchParams);
  if (typeof text !== 'string' || text.trim() === '') throw lakeError(400, 'httpBadRequest', 'The "query" parameter is required');
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw lakeError(400, 'httpBadRequest', '"params" must be an object');
  const option = (name: string) =>
    url.searchParams.get(name) ?? (typeof body[name] === 'string' || typeof body[name] === 'boolean' ? String(body[name]) : null);
  const perspective = perspectiveOf(option('perspective'), apiVersion);
  const sourceMap = option('resultSourceMap');
  // The Studio follows its documents with listeners; only other clients' queries are kept for sync tags.
  const watch = !(option('tag') ?? '').startsWith('sanity.studio');
  const answer = await lake.queries.query(
    lake.dataset.documents(),
    text,
    params as Params,
    { perspective, authenticated, apiVersion },
    {
      sourceMap: !!sourceMap && sourceMap !== 'false',
      watch,
    },
  );
  return json(
    {
      ...(option('returnQuery') === 'false' ? {} : { query: text }),
      result: answer.result,
      syncTags: answer.syncTags,
      ms: answer.ms,
      ...(answer.resultSourceMap ? { resultSourceMap: answer.resultSourceMap } : {}),
    },
    cors,
  );
}

export function docEndpoint({ lake, cors, authenticated, rest }: DataRequest) {
  const ids = rest.split(',').map(decodeId).filter(Boolean);
  if (ids.length === 0 || ids.length > 1000) throw httpError(400, 'Bad Request', 'Give from 1 to 1000 document ids');
  const documents: SanityDocument[] = [];
  const omitted: { id: string; reason: 'existence' | 'permission' }[] = [];
  for (const id of ids) {
    const doc = lake.dataset.get(id);
    if (!authenticated && !isPublishedId(id)) omitted.push({ id, reason: 'permission' });
    else if (!doc) omitted.push({ id, reason: 'existence' });
    else documents.push(doc);
  }
  return json({ documents, omitted }, cors);
}

const denied = (kind: 'mutationError' | 'actionError') => {
  const description = 'Insufficient permissions; permission "update" required';
  return lakeError(403, kind, description, {
    items: [{ error: { type: 'insufficientPermissionsError', description, permission: 'update' }, index: 0 }],
  });
};

export async function mutateEndpoint({ lake, request, url, cors, authenticated }: DataRequest) {
  const body = await readJson(request);
  if (!authenticated) throw denied('mutationError');
  const { results, transactionId } = await lake.mutate(body.mutations, transactionIdOf(body), url.searchParams.get('dryRun') === 'true');
  const withDocuments = url.searchParams.get('returnDocuments') === 'true';
  return json(
    { transactionId, results: results.map(({ document, ...result }) => (withDocuments ? { ...result, document } : result)) },
    cors,
  );
}

export async function actionsEndpoint({ lake, request, cors, authenticated }: DataRequest) {
  const body = await readJson(request);
  if (!authenticated) throw denied('actionError');
  return json(await lake.act(body.actions, transactionIdOf(body), body.dryRun === true), cors);
}

/** References to a document: none, as the schema has no reference fields. */
export function referencesEndpoint({ cors, rest, url }: DataRequest) {
  if (!/^documents\/[^/]+\/to$/.test(rest)) throw httpError(404, 'Not Found', `No references endpoint at ${url.pathname}`);
  return json({ totalCount: 0, references: [] }, cors);
}

/** The dataset as `sanity dataset export` writes it: the content documents, one per line. */
export function exportEndpoint({ lake, cors, authenticated, url }: DataRequest) {
  const types = url.searchParams.get('types')?.split(',').filter(Boolean);
  const documents = lake.dataset
    .documents()
    .filter((doc) => isContentId(doc._id) && (authenticated || isPublishedId(doc._id)) && (!types || types.includes(doc._type)));
  return new Response(documents.map((doc) => `${JSON.stringify(doc)}\n`).join(''), {
    headers: { ...cors, 'content-type': 'application/x-ndjson' },
  });
}
