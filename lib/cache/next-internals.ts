/**
 * Every file of Next's own that the cache handlers load at run time, in one place. Next documents the
 * handlers' interface but exports neither its default 'use cache' handler, nor its file-system page
 * cache, nor the per-process map of revalidated tags that both of its caches read; wrapping them (rather
 * than rewriting them) keeps Next's behaviour, and sharing the map is how a revalidation reaches the
 * pages. A release of `next` may move or change them: next-internals.test.ts loads each and checks its
 * shape, so an upgrade says which one broke. Loaded by Node unbundled, with the handlers.
 */
import { createRequire } from 'node:module';

import type { CacheHandler } from 'next/dist/server/lib/cache-handlers/types';
import type FileSystemCacheClass from 'next/dist/server/lib/incremental-cache/file-system-cache';

const require = createRequire(import.meta.url);

/** The paths, as the test names them when one is gone. */
export const NEXT_INTERNALS = {
  defaultCacheHandler: 'next/dist/server/lib/cache-handlers/default.js',
  fileSystemCache: 'next/dist/server/lib/incremental-cache/file-system-cache.js',
  tagsManifest: 'next/dist/server/lib/incremental-cache/tags-manifest.external.js',
} as const;

export type TagState = { stale?: number; expired?: number };
export type NextTagsManifest = {
  tagsManifest: Map<string, TagState>;
  areTagsExpired(tags: string[], timestamp: number): boolean;
  areTagsStale(tags: string[], timestamp: number): boolean;
};

/** Next's in-memory 'use cache' handler of `maxSize` bytes, the one it uses when none is configured. */
export const { createDefaultCacheHandler } = require(NEXT_INTERNALS.defaultCacheHandler) as {
  createDefaultCacheHandler: (maxSize: number) => CacheHandler;
};

/** Next's page cache: memory, then the build's files and the disk. */
export const FileSystemCache = (require(NEXT_INTERNALS.fileSystemCache) as { default: typeof FileSystemCacheClass }).default;

/**
 * The one map of revalidated tags per process (an ".external" module, outside the server bundles), by
 * require: Node gives CommonJS no named ESM exports.
 */
export const nextTags = require(NEXT_INTERNALS.tagsManifest) as NextTagsManifest;
