/**
 * Sanity's history APIs over the dataset's history (history.ts), in the shapes Studio 5.31.2 reads
 * (../shared/STUDIO-HISTORY.md): a document's events, the transactions that touched some documents (NDJSON,
 * with mendoza effects), and documents as a revision, a time or their last revision left them, deleted ones
 * included. Without the token, as for document reads, only published documents are seen. Every answer has
 * a bound (ids, transactions and events per request), and a malformed parameter is a 400.
 */
import { draftIdOf, isDraftId, isPublishedId, isValidId, publishedIdOf, type SanityDocument } from './documents.ts';
import { httpError, lakeError } from './errors.ts';
import type { History, Timeline } from './history.ts';
import { lastAlive } from './last-state.ts';
import { decodeId, json, type DataRequest } from './request.ts';

const MAX_IDS = 100;
const MAX_EVENTS = 100;
const DEFAULT_TRANSACTIONS = 100;
const MAX_TRANSACTIONS = 1000;
const REVISION = /^[\w.-]{1,128}$/;

const badRequest = (message: string) => lakeError(400, 'httpBadRequest', message);

/** The ids of a path segment (`a,drafts.a`), those the reader may see. */
function idsOf(segment: string, authenticated: boolean): string[] {
  const ids = segment.split(',').map(decodeId).filter(Boolean);
  if (ids.length === 0 || ids.length > MAX_IDS) throw badRequest(`Give from 1 to ${MAX_IDS} document ids`);
  const invalid = ids.find((id) => !isValidId(id));
  if (invalid !== undefined) throw badRequest(`"${invalid.slice(0, 200)}" is not a valid document id`);
  return ids.filter((id) => authenticated || isPublishedId(id));
}

function flag(url: URL, name: string): boolean {
  const value = url.searchParams.get(name);
  if (value === null || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw badRequest(`"${name}" must be true or false`);
}

function count(url: URL, name: string, fallback: number, max: number): number {
  const value = url.searchParams.get(name);
  if (value === null || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw badRequest(`"${name}" must be a whole number from 1`);
  return Math.min(Number(value), max);
}

function revisionParam(url: URL, name: string): string | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === '') return undefined;
  if (!REVISION.test(value)) throw badRequest(`"${name}" is not a transaction id`);
  return value;
}

const ndjson = (lines: unknown[], headers: Record<string, string>, status = 200) =>
  new Response(lines.map((line) => `${JSON.stringify(line)}\n`).join(''), {
    status,
    headers: { ...headers, 'content-type': 'application/x-ndjson' },
  });

/** GET /data/history/:ds/events/documents/:id: the document's events, newest first, a page at a time. */
async function events(history: History, { url, cors, authenticated }: DataRequest, segment: string) {
  const [id] = idsOf(segment, true);
  if (id === undefined || segment.includes(',')) throw badRequest('Give one document id');
  const limit = count(url, 'limit', MAX_EVENTS, MAX_EVENTS);
  const cursor = url.searchParams.get('nextCursor');
  const { entries } = await history.timeline();
  if (cursor && (!/^\d{1,9}$/.test(cursor) || Number(cursor) > entries.length)) throw badRequest('"nextCursor" is not one this API gave');
  const found: unknown[] = [];
  // Drafts' events are for signed-in readers only, as drafts are.
  let next = !authenticated && !isPublishedId(id) ? 0 : cursor ? Number(cursor) : entries.length;
  while (next > 0 && found.length < limit) {
    next -= 1;
    for (const { lists, event } of entries[next]!.events) if (lists.includes(id)) found.push(event);
  }
  return json({ events: { [id]: found }, nextCursor: next > 0 && found.length >= limit ? String(next) : '' }, cors);
}

/** GET /data/history/:ds/transactions/:ids: the transactions that touched them, as NDJSON. */
async function transactions(history: History, { url, cors, authenticated }: DataRequest, segment: string) {
  const ids = new Set(idsOf(segment, authenticated));
  const effectFormat = url.searchParams.get('effectFormat');
  if (effectFormat !== null && effectFormat !== 'mendoza') throw badRequest('"effectFormat" must be mendoza');
  const [reverse, onlyIdentified, noContent, noMutations] = [
    'reverse',
    'includeIdentifiedDocumentsOnly',
    'excludeContent',
    'excludeMutations',
  ].map((name) => flag(url, name));
  const limit = count(url, 'limit', DEFAULT_TRANSACTIONS, MAX_TRANSACTIONS);
  const { entries, index } = await history.timeline();
  const bound = (name: string, fallback: number) => {
    const id = revisionParam(url, name);
    if (id === undefined) return fallback;
    const position = index.get(id);
    if (position === undefined) throw lakeError(404, 'notFoundError', `Transaction "${id}" is not in this dataset's history`);
    return position;
  };
  const [from, to] = [bound('fromTransaction', 0), bound('toTransaction', entries.length - 1)];
  const upToNow = !url.searchParams.get('toTransaction');
  const visible = (id: string) => (onlyIdentified ? ids.has(id) : authenticated || isPublishedId(id));
  const lines: unknown[] = [];
  for (let step = 0; step <= to - from && lines.length < limit; step += 1) {
    const entry = entries[reverse ? to - step : from + step]!;
    if (!entry.documentIDs.some((id) => ids.has(id)) || (upToNow && history.recent(entry.id))) continue;
    const documentIDs = entry.documentIDs.filter(visible);
    const mutations = entry.mutations.filter((mutation) => visible(mutationTarget(mutation)));
    lines.push({
      id: entry.id,
      timestamp: entry.timestamp,
      author: entry.author,
      documentIDs,
      ...(noMutations ? {} : { mutations: noContent ? mutations.map(withoutContent) : mutations }),
      ...(effectFormat ? { effects: Object.fromEntries(documentIDs.map((id) => [id, entry.effects[id]])) } : {}),
    });
  }
  return ndjson(lines, cors);
}

const mutationTarget = (mutation: unknown): string => {
  const [body] = Object.values(mutation as Record<string, { id?: string; _id?: string }>);
  return body?.id ?? body?._id ?? '';
};
/** A mutation without the document it writes: its kind and its document's id. */
const withoutContent = (mutation: unknown) => {
  const [kind = 'patch'] = Object.keys(mutation as object);
  return { [kind]: { id: mutationTarget(mutation) } };
};

/** GET /data/history/:ds/documents/:ids: the documents at `revision`, at `time`, at their `lastRevision`, or now. */
async function documents(history: History, { url, cors, authenticated }: DataRequest, segment: string) {
  const ids = idsOf(segment, authenticated);
  const revision = revisionParam(url, 'revision');
  const last = flag(url, 'lastRevision');
  const time = url.searchParams.get('time');
  if ([revision, last || undefined, time || undefined].filter(Boolean).length > 1)
    throw badRequest('Give one of "revision", "time" and "lastRevision"');
  if (time && !Number.isFinite(Date.parse(time))) throw badRequest('"time" is not a date');
  const timeline = await history.timeline();
  const { entries, index } = timeline;
  let position = entries.length - 1;
  if (revision !== undefined) position = index.get(revision) ?? -1;
  if (time) position = entries.findLastIndex((entry) => Date.parse(entry.timestamp) <= Date.parse(time));
  // The last revision is of the documents together: the last moment any of them existed, as restore wants it
  // (a draft discarded before the document was deleted stays discarded).
  if (last) position = Math.max(-1, ...ids.map((id) => lastAlive(timeline, id)));
  const found = position < 0 ? [] : ids.map((id) => atRevision(history, timeline, id, position, last ? undefined : revision));
  return json({ documents: found.filter((doc) => doc !== null) }, cors);
}

/**
 * The document as transaction `position` left it. A draft asked for at a publish it was not part of (the
 * document published from a commit, with no draft) is the published document: what the draft would have been.
 */
function atRevision(history: History, timeline: Timeline, id: string, position: number, revision?: string): SanityDocument | null {
  const entry = timeline.entries[position]!;
  let doc = history.stateAt(timeline, id, position);
  if (!doc && isDraftId(id) && revision !== undefined && !entry.effects[id] && entry.effects[publishedIdOf(id)]) {
    const published = history.stateAt(timeline, publishedIdOf(id), position);
    doc = published && { ...published, _id: draftIdOf(id) };
  }
  // Asked for by a file's revision that stands for this transaction: the document carries it, as restore expects.
  return doc && revision !== undefined && revision !== entry.id && doc._rev === entry.id ? { ...doc, _rev: revision } : doc;
}

export async function historyEndpoint(request: DataRequest) {
  const { lake, rest, url } = request;
  const [kind, ...tail] = rest.split('/');
  const history = lake.dataset.history;
  if (kind === 'events' && tail[0] === 'documents' && tail.length === 2) return events(history, request, tail[1]!);
  if (kind === 'transactions' && tail.length === 1) return transactions(history, request, tail[0]!);
  if (kind === 'documents' && tail.length === 1) return documents(history, request, tail[0]!);
  throw httpError(404, 'Not Found', `No history endpoint at ${url.pathname}`);
}
