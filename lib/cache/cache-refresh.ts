import 'server-only';

import { CACHED_ENCODINGS } from '@/lib/shared/cached-encodings';
import { cacheRefresh } from '@/lib/env/server';
import { PUBLIC_PATHS } from '@/lib/shared/public-pages';

import { expireTags } from './tag-expiry';

/** The request header nginx checks (deploy/nginx.conf.template names it as $http_x_cache_refresh). */
export const CACHE_REFRESH_HEADER = 'x-cache-refresh';

const REFRESH_TIMEOUT_MS = 10_000;

/**
 * After a publish, asks the caching proxy in front (CACHE_REFRESH_URL) for every public page in each of
 * its cached encodings, with the refresh secret, which makes it fetch the page from this server again
 * and keep that copy: the publish is then visible through the cache one page render (and compression)
 * after the webhook has answered. Every page, not only the changed ones: an unchanged page is answered
 * from Next's cache, and the list stays in one place.
 * Returns the pages refreshed; a failure is logged, not thrown, since the publish itself succeeded and
 * the proxy's own short lifetime (a second or two) catches up.
 */
export async function refreshCachedPages(): Promise<string[]> {
  const proxy = cacheRefresh();
  if (!proxy) return [];
  const results = await Promise.allSettled(
    PUBLIC_PATHS.map(async (page) => {
      // Settled, not all: each request ends before the refresh reports (a failed one is logged once per page).
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
      return page;
    }),
  );
  const failed = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  const refreshed = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failed.length) console.error(`cache refresh through ${proxy.url} failed: ${failed.join('; ')}`);
  // One line per publish (a signed webhook): when the new pages reached the cache.
  if (refreshed.length) console.log(`cache refresh through ${proxy.url}: ${refreshed.join(', ')}`);
  return refreshed;
}

/**
 * Expires `tags` (in a request or out of one), then has the caching proxy take the new pages. Returns at
 * once; a failure is logged with what the change was (`after`), since the change itself is done.
 */
export function expireAndRefresh(tags: readonly string[], after: string): void {
  expireTags(tags)
    .then(refreshCachedPages)
    .catch((error: unknown) => console.error(`the pages could not be refreshed after ${after}`, error));
}
