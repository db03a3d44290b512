/**
 * REDIS_URL: the Redis (or Valkey) that several instances of the site share their cache and webhook
 * replay memory through (lib/cache/). Unset, each instance keeps both in its own memory, as Next does by
 * default. No 'server-only' here: the cache handlers, which Node loads outside the app's bundle, read it
 * too; lib/env/server.ts checks it at start with the rest.
 */
export function redisUrl(): string | undefined {
  const raw = process.env.REDIS_URL?.trim();
  if (!raw) return undefined;
  // null when unparsable, reported below with the other ways it can be wrong.
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) {
    // Not the value itself: it may hold a password.
    throw new Error('REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379.');
  }
  return raw;
}

/** Where the logs say Redis is: the URL without its user name and password. */
export function redisLocation(raw: string): string {
  const url = new URL(raw);
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}
