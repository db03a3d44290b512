/**
 * The 'use cache' handler (next.config.ts cacheHandlers). Without REDIS_URL it is Next's own in-memory
 * handler. With it, two tiers: that same in-memory handler first, Redis behind it, so an entry one
 * instance rendered serves them all, and a revalidation on one reaches the rest (shared-tags.ts).
 * With Redis down, the in-memory tier goes on alone.
 */
import type { CacheEntry, CacheHandler } from 'next/dist/server/lib/cache-handlers/types';

import { createDefaultCacheHandler } from './next-internals.ts';
import { loadEntry, sharedCache, storeEntry, ttlSeconds, type SharedCache } from './shared-cache.ts';
import { nextTags } from './shared-tags.ts';
import { lendUpdateTags } from './tag-expiry.ts';

/** Next's default cacheMaxMemorySize: the in-memory tier is the size Next's own handler would be. */
export const MEMORY_BYTES = 50 * 1024 * 1024;

type StoredEntry = Omit<CacheEntry, 'value'> & { value: Uint8Array };

const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

const keyOf = (cacheKey: string) => `data:${cacheKey}`;

/** Next's handler with Redis behind it. `local` is exposed for the tests. */
export function createSharedCacheHandler(shared: SharedCache, local = createDefaultCacheHandler(MEMORY_BYTES)): CacheHandler {
  return {
    async get(cacheKey, softTags) {
      const hit = await local.get(cacheKey, softTags);
      if (hit) return hit;
      const stored = await loadEntry<StoredEntry>(shared, keyOf(cacheKey));
      // Soft tags are Next's to check (getExpiration); the entry's own tags are the handler's.
      if (!stored || nextTags.areTagsExpired(stored.tags, stored.timestamp)) return undefined;
      const { value, ...meta } = stored;
      await local.set(cacheKey, Promise.resolve({ ...meta, value: streamOf(value) }));
      const revalidate = nextTags.areTagsStale(stored.tags, stored.timestamp) ? -1 : meta.revalidate;
      return { ...meta, revalidate, value: streamOf(value) };
    },

    async set(cacheKey, pendingEntry) {
      const buffered = pendingEntry.then(async (entry) => ({
        entry,
        bytes: new Uint8Array(await new Response(entry.value).arrayBuffer()),
      }));
      // Handed to the local tier at once: a get of this key meanwhile waits for it there.
      const localDone = local.set(
        cacheKey,
        buffered.then(({ entry, bytes }) => ({ ...entry, value: streamOf(bytes) })),
      );
      try {
        const { entry, bytes } = await buffered;
        // An entry with no lifetime is rendered on every read anyway (Next's handler skips it too).
        if (entry.expire > 0) await storeEntry(shared, keyOf(cacheKey), { ...entry, value: bytes }, ttlSeconds(entry.expire));
        await localDone;
      } catch {
        // A render that failed or a stream cut short: nothing is stored, and the render reports its own error.
      }
    },

    refreshTags: () => shared.tags.refresh(),
    // Next's handler reads the same tags manifest that refreshTags fills.
    getExpiration: (tags) => local.getExpiration(tags),
    updateTags: (tags, durations) => shared.tags.update(tags, durations),
  };
}

const shared = sharedCache();
const handler = shared ? createSharedCacheHandler(shared) : createDefaultCacheHandler(MEMORY_BYTES);
// The lake's commits expire their pages through it, from a request or from no request (tag-expiry.ts).
void lendUpdateTags((tags) => handler.updateTags(tags));
export default handler;
