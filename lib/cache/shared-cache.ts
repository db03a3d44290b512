/**
 * What the two cache handlers share in a process: the Redis link, the tag revalidations, and how
 * stored entries are named, encoded and kept. Null without REDIS_URL: the handlers are then Next's own.
 */
import v8 from 'node:v8';

import { KEY_PREFIX, sharedRedis, type RedisLink } from './redis-link.ts';
import { SharedTags } from './shared-tags.ts';

/**
 * The longest an entry stays in Redis. Next's 'max' lifetime is a year, which would keep the pages of
 * every old build around that long; past this an entry is rendered again once, which costs little.
 */
export const ENTRY_TTL_SECONDS = 7 * 24 * 3600;

export type SharedCache = { link: RedisLink; tags: SharedTags };

let shared: SharedCache | null | undefined;

export function sharedCache(): SharedCache | null {
  if (shared === undefined) {
    const link = sharedRedis();
    shared = link && { link, tags: new SharedTags(link) };
  }
  return shared;
}

/** Seconds to keep an entry whose own lifetime is `expire` seconds (Infinity and Next's "forever" included). */
export const ttlSeconds = (expire: number | undefined): number =>
  Math.max(1, Math.min(ENTRY_TTL_SECONDS, Math.ceil(expire ?? ENTRY_TTL_SECONDS)));

/**
 * Stores `value` under `key` within the deadline; false when Redis did not take it. V8's serializer
 * keeps what JSON would lose in Next's entries: Buffers (rscData), Maps (segmentData), undefined.
 */
export function storeEntry(cache: SharedCache, key: string, value: unknown, seconds: number): Promise<boolean> {
  const bytes = v8.serialize(value);
  return cache.link.run(async (client) => (await client.set(`${KEY_PREFIX}${key}`, bytes, 'EX', seconds)) === 'OK', false);
}

/** The entry stored under `key`, or null when there is none or Redis does not answer in time. */
export async function loadEntry<T>(cache: SharedCache, key: string): Promise<T | null> {
  const bytes = await cache.link.run((client) => client.getBuffer(`${KEY_PREFIX}${key}`), null);
  if (!bytes) return null;
  try {
    return v8.deserialize(bytes) as T;
  } catch {
    // Written by another Node version's serializer, or cut short: a miss.
    return null;
  }
}
