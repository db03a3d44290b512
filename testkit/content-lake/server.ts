/**
 * The local Content Lake: a stand-in for Sanity's Content Lake HTTP API, enough for the site's hosted
 * path with no account or network: @sanity/client queries (GET and POST), documents by id, the Live
 * Content API that next-sanity's defineLive/<SanityLive> listen to, draft mode's secret check (a raw
 * query with a token), mutations and the publish action, and the CORS probe the client makes when a
 * live connection fails. Answers have the shapes of Sanity's HTTP API reference; GROQ is groq-js.
 *
 *   const lake = await startContentLake({ file: 'seed/production.ndjson', token: 'lake-viewer-token' });
 *   const client = createClient({ projectId: 'lake', dataset: 'production', apiVersion: '2025-10-01',
 *     apiHost: lake.apiHost, useProjectHostname: false, useCdn: false });
 *   await lake.mutate([{ patch: { id: 'siteSettings', set: { productName: 'New' } } }]); // a live `message`
 *   await lake.stop();
 *
 * Sync tags: one per document a result depends on (`s1:` and a hash of its published id), found by
 * evaluating the query again without each document (datasets up to MAX_TRACKED documents; above that,
 * every document counts), plus one for the query itself. A write emits the tags of the documents it
 * touched and those of every recently answered query whose answer it changed, so a query is refreshed
 * both when a document it read changes and when a new document starts to match it.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { GroqSyntaxError } from 'groq-js';

import { evaluateGroq, parseGroq, type GroqTree } from '../../lib/content/groq-js.ts';

import { createLiveEvents } from './live-events.ts';
import {
  applyMutations,
  applyPublish,
  httpError,
  LakeError,
  lakeError,
  newId,
  type Mutation,
  type MutationResult,
  type PublishAction,
} from './mutations.ts';
import { parseNdjson, parsePerspective, publishedIdOf, view, type Perspective, type SanityDocument } from './perspectives.ts';

export type { Mutation, MutationResult, PublishAction, SanityDocument };

export type ContentLakeOptions = {
  /** The dataset; else `file` (Sanity NDJSON, as `sanity dataset export` writes it); else empty. */
  documents?: SanityDocument[];
  file?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  dataset?: string;
  /** When set, a request naming another project (X-Sanity-Project-ID) is refused; else any is accepted. */
  projectId?: string;
  /** The one token that authenticates (Authorization: Bearer …); any other token is refused with 401. */
  token?: string;
  /** Origins the API answers browsers from; `*` matches within one part, as in http://localhost:*. */
  allowedOrigins?: string[];
  maxStreams?: number;
  heartbeatMs?: number;
  /** After each write: the documents it changed, as they now are (a deleted one as it was), e.g. to send webhooks. */
  onCommit?: (changed: SanityDocument[]) => void;
};

export type ContentLake = {
  /** http://127.0.0.1:<port>, also the `apiHost` for @sanity/client (with useProjectHostname: false). */
  origin: string;
  apiHost: string;
  dataset: string;
  documents(): SanityDocument[];
  /** As POST /data/mutate with the token: one transaction, one live `message`. */
  mutate(mutations: Mutation[]): Promise<{ transactionId: string; results: MutationResult[] }>;
  /** Publishes drafts.<id> as <id>, as the publish action does. */
  publish(id: string): Promise<{ transactionId: string }>;
  /** Replaces the whole dataset, as an import with --replace does: live streams get `restart`. */
  replace(documents: SanityDocument[]): void;
  /** The sync tag that a write to this document (or its draft) emits. */
  syncTagOf(id: string): string;
  liveConnections(): number;
  stop(): Promise<void>;
};

const MAX_BODY = 1024 * 1024;
const MAX_TRACKED = 200;
const MAX_WATCHED = 500;
const VERSIONED = /^\/v(\d{4}-\d{2}-\d{2}|1|X)(\/.*)$/;
const DATA = /^\/data\/(query|doc|mutate|actions|live\/events)\/([^/]+)(?:\/(.*))?$/;
const ALLOW_HEADERS = 'Authorization, Content-Type, Last-Event-ID, Cache-Control, X-Sanity-Project-ID, X-Requested-With';
const DEFAULT_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'];
/** Sanity's answers to a visitor with no session: no current user, and the sign-in providers of sanity.io. */
const STUDIO_SIGN_IN: Record<string, unknown> = {
  '/auth/id': {},
  '/users/me': {},
  '/auth/providers': {
    thirdPartyLogin: true,
    sso: {},
    providers: ['google', 'github', 'sanity'].map((name) => ({
      name,
      title: name === 'sanity' ? 'E-mail / password' : name[0]!.toUpperCase() + name.slice(1),
      url: `https://api.sanity.io/v1/auth/login/${name}`,
    })),
  },
};

type Watched = {
  tree: GroqTree;
  params: Record<string, unknown>;
  perspective: Perspective;
  authenticated: boolean;
  apiVersion: string;
  hash: string;
  syncTags: string[];
};
type Params = Record<string, unknown>;

const FAILED = '\u0000the query failed';
const digest = (value: unknown) =>
  createHash('sha1')
    .update(JSON.stringify(value) ?? 'null')
    .digest('base64url');
const wildcard = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/.]*')}$`,
  );

/** The dataset, the queries answered lately (to know which a write changes) and the live streams. */
class Lake {
  readonly options: ContentLakeOptions;
  documents: SanityDocument[];
  readonly live: ReturnType<typeof createLiveEvents>;
  readonly watched = new Map<string, Watched>();
  readonly datasetName: string;
  private readonly allowed: RegExp[];
  // Writes one at a time, so live events leave in the order the writes were made.
  private writing: Promise<unknown> = Promise.resolve();

  constructor(options: ContentLakeOptions, documents: SanityDocument[]) {
    this.options = options;
    this.documents = documents;
    this.datasetName = options.dataset ?? 'production';
    this.allowed = (options.allowedOrigins ?? DEFAULT_ORIGINS).map(wildcard);
    this.live = createLiveEvents({ maxStreams: options.maxStreams ?? 100, heartbeatMs: options.heartbeatMs ?? 15_000 });
  }

  syncTagOf = (id: string) =>
    `s1:${createHash('sha256')
      .update(`${this.datasetName}:${publishedIdOf(id)}`)
      .digest('base64url')
      .slice(0, 6)}`;

  originAllowed = (origin: string) => this.allowed.some((pattern) => pattern.test(origin));

  async run(tree: GroqTree, dataset: SanityDocument[], params: Params, now: Date): Promise<unknown> {
    const value = await evaluateGroq(tree, {
      dataset,
      params,
      timestamp: now,
      sanity: { projectId: this.options.projectId ?? 'local', dataset: this.datasetName },
    });
    return (await value.get()) ?? null;
  }

  /** The documents whose absence changes the answer: what the query read. */
  async dependencies(tree: GroqTree, seen: SanityDocument[], params: Params, now: Date, answer: unknown): Promise<string[]> {
    if (seen.length > MAX_TRACKED) return seen.map((doc) => doc._id);
    const baseline = digest(answer);
    const ids: string[] = [];
    for (const [i, doc] of seen.entries()) {
      const without = digest(await this.run(tree, seen.toSpliced(i, 1), params, now).catch(() => FAILED));
      if (without !== baseline) ids.push(doc._id);
    }
    return ids;
  }

  async query(text: string, params: Params, perspective: Perspective, authenticated: boolean, apiVersion: string) {
    const started = performance.now();
    const tree = compile(text, params);
    const now = new Date();
    const seen = view(this.documents, perspective, { authenticated, apiVersion });
    let result: unknown;
    try {
      result = await this.run(tree, seen, params, now);
    } catch (error) {
      throw lakeError(400, 'queryExecutionError', (error as Error).message, { query: text });
    }
    const key = JSON.stringify([text, params, perspective, authenticated, apiVersion]);
    const dependencies = await this.dependencies(tree, seen, params, now, result);
    const syncTags = [...new Set(dependencies.map(this.syncTagOf)), `s1:${digest(key).slice(0, 6)}`];
    this.watched.delete(key);
    this.watched.set(key, { tree, params, perspective, authenticated, apiVersion, hash: digest(result), syncTags });
    if (this.watched.size > MAX_WATCHED) this.watched.delete(this.watched.keys().next().value!);
    return { result, syncTags, ms: Math.round(performance.now() - started) };
  }

  serially<T>(write: () => Promise<T>): Promise<T> {
    const next = this.writing.then(write);
    this.writing = next.catch(() => undefined);
    return next;
  }

  async commit(next: SanityDocument[], changedIds: string[]) {
    const before = this.documents;
    this.documents = next;
    const tags = new Set(changedIds.map(this.syncTagOf));
    for (const entry of this.watched.values()) {
      const hash = digest(await this.run(entry.tree, view(next, entry.perspective, entry), entry.params, new Date()).catch(() => FAILED));
      if (hash === entry.hash) continue;
      entry.hash = hash;
      entry.syncTags.forEach((tag) => tags.add(tag));
    }
    // Only documents on the root path are public; a write to drafts, versions or system documents
    // reaches includeDrafts streams only.
    this.live.message(
      [...tags],
      changedIds.every((id) => id.includes('.')),
    );
    if (!this.options.onCommit || changedIds.length === 0) return;
    const latest = (id: string) => next.find((doc) => doc._id === id) ?? before.find((doc) => doc._id === id);
    try {
      this.options.onCommit([...new Set(changedIds)].map(latest).filter((doc): doc is SanityDocument => doc !== undefined));
    } catch (error) {
      console.error('content lake: onCommit failed', error);
    }
  }

  // The documents a {query} selection of a delete or patch picks, by _id, as stored.
  selectIds = async (text: string, params: Params) => {
    const ids = await this.run(compile(text, params), this.documents, params, new Date());
    return (Array.isArray(ids) ? ids : [ids])
      .map((doc) => (doc as SanityDocument | null)?._id)
      .filter((id): id is string => typeof id === 'string');
  };

  mutate = (mutations: unknown, transactionId = newId(), dryRun = false) =>
    this.serially(async () => {
      const applied = await applyMutations(this.documents, mutations, transactionId, this.selectIds);
      if (!dryRun)
        await this.commit(
          applied.documents,
          applied.results.filter((r) => r.operation !== 'none').map((r) => r.id),
        );
      return { transactionId, results: applied.results };
    });

  act = (actions: unknown, transactionId = newId(), dryRun = false) =>
    this.serially(async () => {
      if (!Array.isArray(actions) || actions.length === 0)
        throw lakeError(400, 'actionError', 'The request body must be {"actions": [...]} with at least one action');
      let next = this.documents;
      const changed: string[] = [];
      for (const [index, action] of (actions as PublishAction[]).entries()) {
        if (action?.actionType !== 'sanity.action.document.publish') {
          const description = `Action type "${String(action?.actionType)}" is not supported by the local Content Lake`;
          throw lakeError(400, 'actionError', description, { items: [{ error: { type: 'unsupportedActionError', description }, index }] });
        }
        const applied = applyPublish(next, action, transactionId, index);
        next = applied.documents;
        changed.push(...applied.changedIds);
      }
      if (!dryRun) await this.commit(next, changed);
      return { transactionId };
    });

  /** True for the token, false with none; any other token is refused, as Sanity refuses an unknown session. */
  authenticate(req: IncomingMessage): boolean {
    const header = req.headers.authorization;
    if (header === undefined) return false;
    const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    if (this.options.token !== undefined && token === this.options.token) return true;
    throw httpError(401, 'Unauthorized', 'Session not found');
  }
}

/** Parsed, or a 400 in Sanity's queryParseError shape (what the client turns into a code frame). */
function compile(text: string, params: Params): GroqTree {
  let tree: GroqTree;
  try {
    tree = parseGroq(text, { params });
  } catch (error) {
    if (!(error instanceof GroqSyntaxError))
      throw lakeError(400, 'queryParseError', (error as Error).message, { query: text, start: 0, end: text.length });
    const start = Math.min(error.position, text.length);
    const description = error.message.replace(/^Syntax error in GROQ query at position \d+: /, '');
    throw lakeError(400, 'queryParseError', description, { query: text, start, end: Math.min(start + 1, text.length) });
  }
  const missing = parameterNames(tree)[0];
  if (missing !== undefined) {
    const start = Math.max(text.indexOf(`$${missing}`), 0);
    throw lakeError(400, 'queryParseError', `param $${missing} referenced, but not provided`, {
      query: text,
      start,
      end: start + missing.length + 1,
    });
  }
  return tree;
}

/** One request to a /data endpoint, checked up to the dataset: what each endpoint works with. */
type DataRequest = {
  lake: Lake;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  cors: Record<string, string>;
  apiVersion: string;
  authenticated: boolean;
  /** The path after the dataset (document ids for /doc). */
  rest: string | undefined;
};

function allowMethods({ req, url }: DataRequest, methods: string[]) {
  if (!methods.includes(req.method ?? '')) throw httpError(405, 'Method Not Allowed', `${req.method} is not allowed on ${url.pathname}`);
}

function denied(kind: 'mutationError' | 'actionError') {
  const description = 'Insufficient permissions; permission "update" required';
  return lakeError(403, kind, description, {
    items: [{ error: { type: 'insufficientPermissionsError', description, permission: 'update' }, index: 0 }],
  });
}

async function queryEndpoint(request: DataRequest) {
  const { lake, req, res, url, cors, apiVersion, authenticated } = request;
  allowMethods(request, ['GET', 'POST']);
  const body = req.method === 'POST' ? await readJson(req) : {};
  const text = req.method === 'POST' ? body.query : url.searchParams.get('query');
  const params = req.method === 'POST' ? (body.params ?? {}) : paramsOf(url.searchParams);
  if (typeof text !== 'string' || text.trim() === '') throw lakeError(400, 'httpBadRequest', 'The "query" parameter is required');
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw lakeError(400, 'httpBadRequest', '"params" must be an object');
  const option = (name: string) =>
    url.searchParams.get(name) ?? (typeof body[name] === 'string' || typeof body[name] === 'boolean' ? String(body[name]) : null);
  let perspective: Perspective;
  try {
    perspective = parsePerspective(option('perspective'), apiVersion);
  } catch (error) {
    throw lakeError(400, 'httpBadRequest', (error as Error).message);
  }
  // lastLiveEventId asks for an answer at least that fresh: every answer here is current.
  const answer = await lake.query(text, params as Params, perspective, authenticated, apiVersion);
  const sourceMap = option('resultSourceMap');
  const body200 = {
    ...(option('returnQuery') === 'false' ? {} : { query: text }),
    result: answer.result,
    syncTags: answer.syncTags,
    ms: answer.ms,
    // A valid, empty Content Source Map: stega and overlays then have nothing to encode.
    ...(sourceMap && sourceMap !== 'false' ? { resultSourceMap: { documents: [], paths: [], mappings: {} } } : {}),
  };
  send(res, 200, body200, cors);
}

function docEndpoint(request: DataRequest) {
  const { lake, res, cors, authenticated, rest } = request;
  allowMethods(request, ['GET']);
  const ids = (rest ?? '').split(',').map(decodeId).filter(Boolean);
  if (ids.length === 0) throw httpError(404, 'Not Found', 'No document ids given');
  const found: SanityDocument[] = [];
  const omitted: { id: string; reason: 'existence' | 'permission' }[] = [];
  for (const id of ids) {
    const doc = lake.documents.find((candidate) => candidate._id === id);
    if (!authenticated && id.includes('.')) omitted.push({ id, reason: 'permission' });
    else if (!doc) omitted.push({ id, reason: 'existence' });
    else found.push(doc);
  }
  send(res, 200, { documents: found, omitted }, cors);
}

async function mutateEndpoint(request: DataRequest) {
  const { lake, req, res, url, cors, authenticated } = request;
  allowMethods(request, ['POST']);
  const body = await readJson(req);
  if (!authenticated) throw denied('mutationError');
  const transactionId = typeof body.transactionId === 'string' ? body.transactionId : undefined;
  const { results, ...rest } = await lake.mutate(body.mutations, transactionId, url.searchParams.get('dryRun') === 'true');
  const withDocuments = url.searchParams.get('returnDocuments') === 'true';
  send(res, 200, { ...rest, results: results.map(({ document, ...result }) => (withDocuments ? { ...result, document } : result)) }, cors);
}

async function actionsEndpoint(request: DataRequest) {
  const { lake, req, res, cors, authenticated } = request;
  allowMethods(request, ['POST']);
  const body = await readJson(req);
  if (!authenticated) throw denied('actionError');
  const transactionId = typeof body.transactionId === 'string' ? body.transactionId : undefined;
  send(res, 200, await lake.act(body.actions, transactionId, body.dryRun === true), cors);
}

function liveEndpoint(request: DataRequest) {
  const { lake, req, res, url, cors, authenticated } = request;
  allowMethods(request, ['GET']);
  // The reference: 406 unless the client accepts an event stream.
  if (!String(req.headers.accept ?? '').includes('text/event-stream'))
    throw httpError(406, 'Not Acceptable', 'The live events API answers text/event-stream only');
  const includeDrafts = url.searchParams.get('includeDrafts') === 'true';
  if (includeDrafts && !authenticated) throw httpError(401, 'Unauthorized', 'includeDrafts requires a token');
  const lastEventId = req.headers['last-event-id'] ?? url.searchParams.get('lastEventId') ?? undefined;
  lake.live.open(req, res, { includeDrafts, lastEventId: Array.isArray(lastEventId) ? lastEventId[0] : lastEventId, headers: cors });
}

const ENDPOINTS: Record<string, (request: DataRequest) => unknown> = {
  query: queryEndpoint,
  doc: docEndpoint,
  mutate: mutateEndpoint,
  actions: actionsEndpoint,
  'live/events': liveEndpoint,
};

/** The CORS preflight: allowed origins get every method and the headers they ask for. */
function preflight(lake: Lake, req: IncomingMessage, res: ServerResponse, cors: Record<string, string>) {
  const origin = req.headers.origin;
  if (origin !== undefined && !lake.originAllowed(origin)) throw httpError(403, 'Forbidden', `Origin ${origin} is not allowed`);
  const headers = req.headers['access-control-request-headers'] ?? ALLOW_HEADERS;
  res
    .writeHead(204, {
      ...cors,
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': headers,
      'access-control-max-age': '600',
    })
    .end();
}

/** The project and dataset a /data request names must be this lake's. */
function checkDataset(lake: Lake, req: IncomingMessage, dataset: string | undefined) {
  const { projectId } = lake.options;
  const project = req.headers['x-sanity-project-id'];
  if (projectId !== undefined && project !== undefined && project !== projectId)
    throw httpError(404, 'Not Found', `Project ID "${String(project)}" not found`);
  if (dataset !== lake.datasetName)
    throw httpError(404, 'Not Found', `Dataset "${dataset}" not found for project ID "${projectId ?? String(project ?? 'local')}"`);
}

async function handle(lake: Lake, req: IncomingMessage, res: ServerResponse, cors: Record<string, string>) {
  const url = new URL(req.url ?? '/', 'http://lake.invalid');
  const origin = req.headers.origin;
  if (req.method === 'OPTIONS') return preflight(lake, req, res, cors);
  const [, apiVersion, path] = VERSIONED.exec(url.pathname) ?? [];
  if (apiVersion === undefined || path === undefined) throw httpError(404, 'Not Found', `No endpoint at ${url.pathname}`);

  // What @sanity/client's live.events() asks when its EventSource fails: is the page's origin allowed?
  if (path === '/check/cors') {
    const referer = req.headers.referer;
    const asking = origin ?? (referer && URL.canParse(referer) ? new URL(referer).origin : undefined);
    const ok = asking === undefined || lake.originAllowed(asking);
    return send(res, 200, { result: { allowed: ok, withCredentials: ok } }, cors);
  }
  if (origin !== undefined && !lake.originAllowed(origin))
    throw httpError(403, 'Forbidden', `Origin ${origin} is not allowed; add it to the project's CORS origins`);
  // What the embedded Studio asks before anything else: nobody is signed in here, so it shows its
  // sign-in screen with Sanity's providers (which need the real service to go further).
  const signIn = STUDIO_SIGN_IN[path];
  if (signIn) return send(res, 200, signIn, cors);
  const authenticated = lake.authenticate(req);

  const [, endpoint, dataset, rest] = DATA.exec(path) ?? [];
  if (endpoint === undefined || (rest !== undefined && endpoint !== 'doc'))
    throw httpError(404, 'Not Found', `No endpoint at ${url.pathname}`);
  checkDataset(lake, req, dataset);
  await ENDPOINTS[endpoint]!({ lake, req, res, url, cors, apiVersion, authenticated, rest });
}

/** Answers every request through handle(); a failure becomes Sanity's error shape. */
function lakeServer(lake: Lake) {
  const server = createServer((req, res) => {
    const origin = req.headers.origin;
    const cors: Record<string, string> =
      origin !== undefined && lake.originAllowed(origin)
        ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' }
        : {};
    handle(lake, req, res, cors).catch((error: unknown) => {
      const failure =
        error instanceof LakeError
          ? error
          : httpError(500, 'Internal Server Error', `The local Content Lake failed: ${(error as Error)?.message}`);
      if (failure.status === 500) console.error('content lake:', error);
      if (res.headersSent) res.destroy();
      // A body we did not read to the end must not be taken for the next request on this connection.
      else send(res, failure.status, failure.body, failure.status === 413 ? { ...cors, connection: 'close' } : cors);
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  return server;
}

export async function startContentLake(options: ContentLakeOptions = {}): Promise<ContentLake> {
  const documents = options.documents ?? (options.file ? parseNdjson(await readFile(options.file, 'utf8'), options.file) : []);
  const lake = new Lake(options, documents);
  const server = lakeServer(lake);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const origin = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    apiHost: origin,
    dataset: lake.datasetName,
    documents: () => structuredClone(lake.documents),
    mutate: (mutations) => lake.mutate(mutations),
    publish: (id) => lake.act([{ actionType: 'sanity.action.document.publish', draftId: `drafts.${id}`, publishedId: id }]),
    replace(next) {
      lake.documents = structuredClone(next);
      lake.watched.clear();
      lake.live.restart();
    },
    syncTagOf: lake.syncTagOf,
    liveConnections: () => lake.live.size(),
    async stop() {
      lake.live.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>) {
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY)
    throw httpError(413, 'Payload Too Large', `Request bodies are limited to ${MAX_BODY} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw httpError(413, 'Payload Too Large', `Request bodies are limited to ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw httpError(400, 'Bad Request', 'The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw httpError(400, 'Bad Request', 'The request body must be a JSON object');
  return body as Record<string, unknown>;
}

function decodeId(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    throw httpError(400, 'Bad Request', `"${id}" is not a valid document id`);
  }
}

/** GET query parameters: `$name=<JSON>`, refused as Sanity refuses an unquoted string. */
function paramsOf(search: URLSearchParams): Params {
  const params: Params = {};
  for (const [key, value] of search) {
    if (!key.startsWith('$')) continue;
    try {
      params[key.slice(1)] = JSON.parse(value);
    } catch {
      throw lakeError(400, 'httpBadRequest', `Unable to parse value of "${key}=${value}". Please quote string values.`);
    }
  }
  return params;
}

/** Names of the parameters a parsed query still refers to (those groq-js did not substitute). */
function parameterNames(node: unknown, names: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((child) => parameterNames(child, names));
  else if (typeof node === 'object' && node !== null) {
    const { type, name } = node as { type?: unknown; name?: unknown };
    if (type === 'Parameter' && typeof name === 'string') names.push(name);
    else if (type !== 'Value') Object.values(node).forEach((child) => parameterNames(child, names));
  }
  return names;
}
