import 'server-only';

import { CACHED_ENCODINGS } from '@/lib/shared/cached-encodings';
import { cacheRefresh } from '@/lib/env/server';
import { servedLanguages } from '@/lib/shared/language-gate';
import { localePath } from '@/lib/shared/languages';

import { expireTags } from './tag-expiry';

/** The request header nginx checks (deploy/nginx.conf.template names it as $http_x_cache_refresh). */
export const CACHE_REFRESH_HEADER = 'x-cache-refresh';

const REFRESH_TIMEOUT_MS = 10_000;

/**
 * Pages at a time, each in its CACHED_ENCODINGS: the proxy takes each from this server, which renders
 * it once and answers the other encodings from its cache. Two cores render two pages at once; the
 * pages first in line (the changed language's) are not held behind the rest.
 */
export const REFRESH_CONCURRENCY = 2;

/**
 * Pages a change showed on: their paths in the default language (ROUTES), and the one language whose
 * pages show it, or null where every language's do (a document of the default language, which every
 * translation falls back to, or one of no language at all).
 */
export type ChangedPages = { pages: readonly string[]; language: string | null };

/**
 * Each changed page, as its path in each language that shows it: the change's own language first, then
 * the default language's, then the others in the settings' order. A language the site does not serve
 * shows nothing. Before the settings are read, the default language's paths alone. At most the site's
 * languages (MAX_LANGUAGES) times its public pages, however many changes come.
 */
export function pathsShowing(changes: readonly ChangedPages[]): string[] {
  const served = servedLanguages() ?? { tags: [''], defaultLanguage: '' };
  const paths = new Set<string>();
  for (const { pages, language } of changes) {
    const every = language === null || language === served.defaultLanguage;
    const languages = every ? [served.defaultLanguage, ...served.tags.filter((tag) => tag !== served.defaultLanguage)] : [language];
    for (const tag of languages.filter((each) => served.tags.includes(each)))
      for (const page of pages) paths.add(localePath(page, tag, served));
  }
  return [...paths];
}

/** A page waiting for its turn: its place in its publish's list (`rank`), and when it came (`order`). */
type Waiting = { rank: number; order: number; promise: Promise<boolean>; resolve: (refreshed: boolean) => void };

/**
 * One queue per process. A page asked for again before its turn is asked for once; one in flight is
 * asked for again after it (its render may predate the change). The next page is the one earliest in
 * its own publish's list, then the one that came first: a publish's own pages do not wait behind the
 * tail of the one before (the lake's refresh and the webhook's, for the same edit). So a burst of
 * publishes leaves at most every page in every language waiting.
 */
const queue = { waiting: new Map<string, Waiting>(), running: 0, arrivals: 0 };

function next(): [string, Waiting] {
  let first: [string, Waiting] | undefined;
  for (const entry of queue.waiting) {
    if (!first || entry[1].rank < first[1].rank || (entry[1].rank === first[1].rank && entry[1].order < first[1].order)) first = entry;
  }
  return first!;
}

async function askProxy(proxy: { url: string; secret: string }, page: string): Promise<void> {
  // Settled, not all: each request ends before the page reports (a failed one is logged once per page).
  const copies = await Promise.allSettled(
    CACHED_ENCODINGS.map(async (encoding) => {
      const response = await fetch(new URL(page, proxy.url), {
        headers: { [CACHE_REFRESH_HEADER]: proxy.secret, 'accept-encoding': encoding },
        cache: 'no-store',
        signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${page} (${encoding}) answered ${response.status}`);
    }),
  );
  const failure = copies.find((copy) => copy.status === 'rejected');
  if (failure) throw failure.reason;
}

function drain(proxy: { url: string; secret: string }): void {
  while (queue.running < REFRESH_CONCURRENCY && queue.waiting.size > 0) {
    const [page, waiting] = next();
    queue.waiting.delete(page);
    queue.running += 1;
    askProxy(proxy, page)
      .then(
        () => waiting.resolve(true),
        (error: unknown) => {
          console.error(`cache refresh through ${proxy.url} failed: ${String(error)}`);
          waiting.resolve(false);
        },
      )
      .finally(() => {
        queue.running -= 1;
        drain(proxy);
      });
  }
}

function enqueue(proxy: { url: string; secret: string }, page: string, rank: number): Promise<boolean> {
  const waiting = queue.waiting.get(page);
  if (waiting) {
    waiting.rank = Math.min(waiting.rank, rank);
    return waiting.promise;
  }
  let resolve: (refreshed: boolean) => void = () => {};
  const promise = new Promise<boolean>((done) => (resolve = done));
  queue.waiting.set(page, { rank, order: queue.arrivals++, promise, resolve });
  drain(proxy);
  return promise;
}

/**
 * After a publish, asks the caching proxy in front (CACHE_REFRESH_URL) for each page it changed
 * (pathsShowing) in each of its cached encodings, with the refresh secret, which makes it fetch the page
 * from this server again and keep that copy: the publish is then visible through the cache one page
 * render (and compression) after the webhook has answered.
 * Returns the pages refreshed; a failure is logged, not thrown, since the publish itself succeeded and
 * the proxy's own short lifetime (a second or two) catches up.
 */
export async function refreshCachedPages(changes: readonly ChangedPages[]): Promise<string[]> {
  const proxy = cacheRefresh();
  if (!proxy) return [];
  const pages = pathsShowing(changes);
  const refreshed = await Promise.all(pages.map((page, rank) => enqueue(proxy, page, rank)));
  const done = pages.filter((_, index) => refreshed[index]);
  // One line per publish: when the new pages reached the cache.
  if (done.length) console.log(`cache refresh through ${proxy.url}: ${done.join(', ')}`);
  return done;
}

/**
 * Expires `tags` (in a request or out of one), then has the caching proxy take the changed pages. Returns
 * at once; a failure is logged with what the change was (`after`), since the change itself is done.
 */
export function expireAndRefresh(tags: readonly string[], changes: readonly ChangedPages[], after: string): void {
  expireTags(tags)
    .then(() => refreshCachedPages(changes))
    .catch((error: unknown) => console.error(`the pages could not be refreshed after ${after}`, error));
}
