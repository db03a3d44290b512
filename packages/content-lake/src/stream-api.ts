/**
 * The two streaming endpoints: the listener (/data/listen, the Studio's) and the Live Content API's events
 * (/data/live/events, the site's previews). A browser's stream to a `local` lake is first sent to a host
 * name of its own (access.ts, streamRedirect).
 */
import { streamRedirect, type Access } from './access.ts';
import { paramsOf } from './data-api.ts';
import type { DataRequest } from './request.ts';
import { httpError, lakeError } from './errors.ts';
import { compile } from './queries.ts';

const MAX_LISTEN_QUERY = 16_000;
const flag = (url: URL, name: string, fallback: boolean) => {
  const value = url.searchParams.get(name);
  return value === null ? fallback : value === 'true';
};

export function listenEndpoint({ lake, request, url, cors, authenticated }: DataRequest, access: Access) {
  const redirect = streamRedirect(access, request);
  if (redirect) return redirect;
  const text = url.searchParams.get('query');
  if (!text || text.length > MAX_LISTEN_QUERY)
    throw lakeError(400, 'httpBadRequest', `The "query" parameter is required, at most ${MAX_LISTEN_QUERY} characters`);
  const params = paramsOf(url.searchParams);
  const response = lake.listeners.open(
    {
      tree: compile(text, params),
      params,
      authenticated,
      includeResult: flag(url, 'includeResult', true),
      includePreviousRevision: flag(url, 'includePreviousRevision', false),
      includeMutations: flag(url, 'includeMutations', true),
      includeAllVersions: flag(url, 'includeAllVersions', false),
      mendoza: url.searchParams.get('effectFormat') === 'mendoza',
    },
    cors,
    request.signal,
  );
  if (!response) throw httpError(429, 'Too Many Requests', 'Too many open listeners');
  return response;
}

export function liveEndpoint({ lake, request, url, cors, authenticated }: DataRequest, access: Access) {
  // The reference: 406 unless the client accepts an event stream.
  if (!(request.headers.get('accept') ?? '').includes('text/event-stream'))
    throw httpError(406, 'Not Acceptable', 'The live events API answers text/event-stream only');
  const redirect = streamRedirect(access, request);
  if (redirect) return redirect;
  const includeDrafts = url.searchParams.get('includeDrafts') === 'true';
  if (includeDrafts && !authenticated) throw httpError(401, 'Unauthorized', 'includeDrafts requires a token');
  const lastEventId = request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId') ?? undefined;
  return lake.live.open({ includeDrafts, lastEventId, headers: cors, signal: request.signal });
}
