/**
 * History, references and export. The local lake keeps no past revisions: the history is empty (the
 * Studio then shows none, as for a dataset whose history was cleared), a revision is found only while it is
 * the current one, and nothing refers to anything (the schema has no references). Export is the dataset as
 * `sanity dataset export` writes it: the content documents, one per line.
 */
import { isContentId, isPublishedId, publishedIdOf } from './documents.ts';
import { httpError } from './errors.ts';
import { decodeId, json, type DataRequest } from './data-api.ts';

export function historyEndpoint({ lake, url, cors, rest, authenticated }: DataRequest) {
  const [kind, ...tail] = rest.split('/');
  if (kind === 'events' && tail[0] === 'documents' && tail[1]) return json({ events: { [decodeId(tail[1])]: [] }, nextCursor: '' }, cors);
  if (kind === 'transactions') return new Response('', { headers: { ...cors, 'content-type': 'application/x-ndjson' } });
  const ids = kind === 'documents' ? tail.join('/').split(',').map(decodeId).filter(Boolean) : [];
  if (ids.length > 0) {
    const revision = url.searchParams.get('revision');
    // Sub-paths (drafts, versions, draft mode's secrets) are for signed-in readers only, as everywhere else.
    const documents = ids
      .filter((id) => authenticated || isPublishedId(id))
      .map((id) => lake.dataset.get(id))
      .filter((doc) => doc !== undefined && (revision === null || doc._rev === revision));
    return json({ documents }, cors);
  }
  throw httpError(404, 'Not Found', `No history endpoint at ${url.pathname}`);
}

export function referencesEndpoint({ cors, rest, url }: DataRequest) {
  if (!/^documents\/[^/]+\/to$/.test(rest)) throw httpError(404, 'Not Found', `No references endpoint at ${url.pathname}`);
  return json({ totalCount: 0, references: [] }, cors);
}

export function exportEndpoint({ lake, cors, authenticated, url }: DataRequest) {
  const types = url.searchParams.get('types')?.split(',').filter(Boolean);
  const documents = lake.dataset
    .documents()
    .filter(
      (doc) => isContentId(doc._id) && (authenticated || doc._id === publishedIdOf(doc._id)) && (!types || types.includes(doc._type)),
    );
  return new Response(documents.map((doc) => `${JSON.stringify(doc)}\n`).join(''), {
    headers: { ...cors, 'content-type': 'application/x-ndjson' },
  });
}
