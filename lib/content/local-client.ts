import 'server-only';

import { ClientError, SanityClient, ServerError, type HttpRequest, type RequestOptions } from '@sanity/client';
import { Observable } from 'rxjs';

import type { LakeHandler } from '@school-site/content-lake';
import { lakeApiHost, LOCAL_PROJECT } from '@school-site/content-lake';
import { SANITY_API_VERSION, siteUrl } from '@/lib/env/public';

import { localLake } from './local-lake';

/**
 * The site's Sanity client on the embedded default: the same @sanity/client as with a hosted project
 * (queries, perspectives, stega, Live's sync tags), whose requests go to the local lake's handler in this
 * process instead of over the network. So one content path serves both, and `next build` reads the seed
 * with no server running. The API host is the site's own, for the browser's side of Live in draft mode.
 */

type Options = Omit<RequestOptions, 'query' | 'body'> & {
  url: string;
  query?: Record<string, string | number | boolean | (string | number | boolean)[] | undefined>;
  body?: unknown;
};

function toRequest({ url, query, method, headers, body }: Options): Request {
  const target = new URL(url);
  for (const [key, value] of Object.entries(query ?? {}))
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) target.searchParams.append(key, String(item));
  const sent = new Headers(headers);
  const text = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
  if (text !== undefined && !sent.has('content-type')) sent.set('content-type', 'application/json');
  return new Request(target, { method: method ?? 'GET', headers: sent, body: text });
}

/** The answer as get-it's response event, or the client's own error for a 4xx or 5xx (what its http middleware throws). */
async function toEvent(response: Response, request: Request) {
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  const res = {
    body: isJson && text ? (JSON.parse(text) as unknown) : text,
    url: request.url,
    method: request.method,
    headers: Object.fromEntries(response.headers),
    statusCode: response.status,
    statusMessage: response.statusText,
  };
  if (response.status >= 500) throw new ServerError(res);
  if (response.status >= 400) throw new ClientError(res);
  return { type: 'response' as const, ...res };
}

/** @sanity/client's transport, replaced by a call of the lake's handler in this process. */
const inProcess = (lake: () => Promise<LakeHandler>) =>
  ((options: Options) =>
    new Observable((subscriber) => {
      const request = toRequest(options);
      lake()
        .then((handle) => handle(request, { internal: true }))
        .then((response) => toEvent(response, request))
        .then((event) => {
          subscriber.next(event);
          subscriber.complete();
        })
        .catch((error: unknown) => subscriber.error(error));
    })) as unknown as HttpRequest;

/**
 * A client of the lake whose handler `lake` gives, in this process. `origin`: where browsers reach the
 * lake, for the browser's side of Live (draft-tools.tsx passes the preview's own origin).
 */
export function inProcessClient(lake: () => Promise<LakeHandler>, origin = siteUrl()): SanityClient {
  return new SanityClient(inProcess(lake), {
    ...LOCAL_PROJECT,
    apiVersion: SANITY_API_VERSION,
    apiHost: lakeApiHost(origin),
    useProjectHostname: false,
    useCdn: false,
    perspective: 'published',
    stega: { studioUrl: '/studio' },
  });
}

export const localClient = (origin?: string) => inProcessClient(async () => (await localLake()).handle, origin);
