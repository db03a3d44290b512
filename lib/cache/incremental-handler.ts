/**
 * The cache of the prerendered pages (next.config.ts cacheHandler). Without REDIS_URL it is Next's own
 * (memory, then the build's files and the disk). With it, that same cache stays in front and Redis
 * stands behind it: a page one instance rendered after a publish serves the others, and before any
 * read the instance takes in the revalidations the others made (shared-tags.ts), which is how a
 * publish sent to one instance reaches every one. With Redis down, Next's own cache goes on alone.
 * Either way a page is dated from when its render began (DatedPageCache).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { CacheHandler, CacheHandlerContext, CacheHandlerValue } from 'next/dist/server/lib/incremental-cache';

import { FileSystemCache } from './next-internals.ts';
import { keepNotFoundPage, notFoundKeyLanguage } from './not-found-page.ts';
import { loadEntry, sharedCache, storeEntry, ttlSeconds, type SharedCache } from './shared-cache.ts';
import { nextTags } from './shared-tags.ts';

type GetContext = Parameters<CacheHandler['get']>[1];
type SetContext = Parameters<CacheHandler['set']>[2];

/** Where Next puts a page's tags (its 'use cache' tags and the path's own), as in its file-system cache. */
const TAGS_HEADER = 'x-next-cache-tags';

function tagsOf(entry: CacheHandlerValue, ctx: GetContext): string[] {
  const header = (entry.value as { headers?: Record<string, unknown> } | null)?.headers?.[TAGS_HEADER];
  if (typeof header === 'string') return header.split(',');
  const fetchContext = ctx as { tags?: string[]; softTags?: string[] };
  return [...(fetchContext.tags ?? []), ...(fetchContext.softTags ?? [])];
}

const outdated = (entry: CacheHandlerValue, ctx: GetContext) => nextTags.areTagsExpired(tagsOf(entry, ctx), entry.lastModified);

/**
 * The 404 page, for proxy.ts (not-found-page.ts): fresh while none of its tags expired since it was
 * rendered, as other instances revalidated them too when they share Redis.
 */
function keepIfNotFound(cacheKey: string, entry: CacheHandlerValue, ctx: GetContext): void {
  const language = notFoundKeyLanguage(cacheKey);
  if (language === null) return;
  const tags = tagsOf(entry, ctx);
  keepNotFoundPage(language, entry.value, async () => {
    await sharedCache()?.tags.refresh();
    return !nextTags.areTagsExpired(tags, entry.lastModified);
  });
}

/** Pages are named by route, not by build: each build's entries are kept apart. */
const buildIds = new Map<string, string>();
let lastBuildId: string | undefined;
/**
 * Next gives no serverDistDir to the cache it makes for a server action's render (a form posted
 * without JavaScript, checked in 16.4.6): that one takes the build ID this process has already read.
 */
function buildIdOf(serverDistDir: string | undefined): string {
  if (serverDistDir === undefined) return lastBuildId ?? 'unknown-build';
  let id = buildIds.get(serverDistDir);
  if (id === undefined) {
    id = readFileSync(path.join(serverDistDir, '..', 'BUILD_ID'), 'utf8').trim();
    buildIds.set(serverDistDir, id);
  }
  lastBuildId = id;
  return id;
}

/** When the render of each page this process stored began, by cache key: one per route, so bounded by them. */
const renderStarts = new Map<string, number>();

/**
 * Next's own page cache, with each page dated from when its render began, not from when it was stored.
 * A render that read the content before a publish and was stored after it would otherwise count as newer
 * than the publish, and serve the old text until the next one. Next makes one per request, and a
 * request's render begins after that: its start is the date, on the safe side.
 */
export class DatedPageCache extends FileSystemCache {
  readonly requestStart = Date.now();

  async get(cacheKey: string, ctx: GetContext): Promise<CacheHandlerValue | null> {
    const entry = await super.get(cacheKey, ctx);
    const started = renderStarts.get(cacheKey);
    const dated = entry && started !== undefined && started < entry.lastModified ? { ...entry, lastModified: started } : entry;
    // None, as Next's own answers for a page whose tags expired since: the read renders it again.
    if (dated !== entry && outdated(dated!, ctx)) return null;
    if (dated) keepIfNotFound(cacheKey, dated, ctx);
    return dated;
  }

  async set(cacheKey: string, data: CacheHandlerValue['value'], ctx: SetContext): Promise<void> {
    return this.setDated(cacheKey, data, ctx, this.requestStart);
  }

  /** Stores a page rendered at `renderStart` (by this request, or by another instance). */
  async setDated(cacheKey: string, data: CacheHandlerValue['value'], ctx: SetContext, renderStart: number): Promise<void> {
    renderStarts.set(cacheKey, renderStart);
    await super.set(cacheKey, data, ctx);
    if (data) keepIfNotFound(cacheKey, { lastModified: renderStart, value: data }, ctx as GetContext);
  }
}

/** Next makes one per request, as it does its own. */
export class SharedIncrementalCache implements CacheHandler {
  private readonly local: DatedPageCache;
  private readonly prefix: string;
  private readonly shared: SharedCache;

  constructor(ctx: CacheHandlerContext, shared: SharedCache = sharedCache()!) {
    this.shared = shared;
    this.local = new DatedPageCache(ctx as ConstructorParameters<typeof FileSystemCache>[0]);
    this.prefix = `page:${buildIdOf(ctx.serverDistDir)}:`;
  }

  async get(cacheKey: string, ctx: GetContext): Promise<CacheHandlerValue | null> {
    await this.shared.tags.refresh();
    const local = await this.local.get(cacheKey, ctx);
    if (local && !outdated(local, ctx)) return local;
    const stored = await loadEntry<CacheHandlerValue>(this.shared, this.prefix + cacheKey);
    if (!stored || outdated(stored, ctx) || (local && stored.lastModified <= local.lastModified)) return local;
    // Kept in front, so the next read of this page does not go to Redis (fetch entries are not this site's).
    if ((ctx.kind as string) !== 'FETCH' && stored.value) {
      const { isFallback, isRoutePPREnabled } = ctx as { isFallback?: boolean; isRoutePPREnabled?: boolean };
      const setContext = { cacheControl: stored.cacheControl, isFallback, isRoutePPREnabled } as SetContext;
      await this.local.setDated(cacheKey, stored.value, setContext, stored.lastModified);
    }
    return stored;
  }

  async set(cacheKey: string, data: CacheHandlerValue['value'], ctx: SetContext): Promise<void> {
    await this.local.set(cacheKey, data, ctx);
    if (!data) return;
    const cacheControl = 'cacheControl' in ctx ? ctx.cacheControl : undefined;
    const entry: CacheHandlerValue = { lastModified: this.local.requestStart, value: data, cacheControl };
    const expire = cacheControl?.expire ?? (typeof cacheControl?.revalidate === 'number' ? cacheControl.revalidate : undefined);
    await storeEntry(this.shared, this.prefix + cacheKey, entry, ttlSeconds(expire));
  }

  /**
   * Here only: Next hands the same revalidation to the 'use cache' handler (updateTags), which sends
   * it to the other instances; sending it twice would cost a second round trip and log line.
   */
  async revalidateTag(tags: string | string[], durations?: { expire?: number }): Promise<void> {
    this.shared.tags.apply(typeof tags === 'string' ? [tags] : tags, durations);
  }

  resetRequestCache(): void {
    this.local.resetRequestCache();
  }
}

export default sharedCache() ? SharedIncrementalCache : DatedPageCache;
