import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startCacheInstance, type CacheInstance } from '@/testkit/cache-instance';
import { startRedis, type RedisServer } from '@/testkit/redis';

/**
 * The cache handlers of lib/cache/ against a real redis-server: each "instance" runs in a worker thread
 * of its own (own modules, own Next tags manifest, own connection), so two of them share only Redis.
 */
let redis: RedisServer;
const instances: CacheInstance[] = [];

async function instance(url = redis.url): Promise<CacheInstance> {
  const started = await startCacheInstance({ REDIS_URL: url });
  instances.push(started);
  return started;
}

/** Polls `read` until it returns `want` (the link reconnects in the background), at most `tries` times. */
async function eventually<T>(read: () => Promise<T>, want: T, tries = 100): Promise<T> {
  let last = await read();
  for (let i = 0; i < tries && last !== want; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  return last;
}

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(instances.splice(0).map((each) => each.close()));
  if (!redis) return;
  await redis.stop();
  await redis.start();
});
afterAll(async () => redis?.close());

describe("'use cache' entries", () => {
  it('one instance stores an entry, another reads it from Redis', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.set('k1', 'hello', ['landingPage']);
    expect(await b.get('k1')).toEqual({ text: 'hello', revalidate: 365 * 24 * 3600 });
    expect(await b.get('missing')).toBeNull();
  });

  it("a revalidation on one instance is seen by the other's next read, for entries it holds in memory too", async () => {
    const [a, b] = [await instance(), await instance()];
    await a.set('k2', 'old', ['privacyPolicy']);
    await b.set('k3', 'kept', ['supportPage']);
    expect(await b.get('k2')).toMatchObject({ text: 'old' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await a.updateTags(['privacyPolicy']);
    expect(await b.get('k2')).toBeNull();
    expect(await a.get('k2')).toBeNull();
    expect(await b.get('k3')).toMatchObject({ text: 'kept' });
    // An entry made after the revalidation is served again, on both.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await b.set('k2', 'new', ['privacyPolicy']);
    expect(await a.get('k2')).toMatchObject({ text: 'new' });
  });

  it('a stale-while-revalidate revalidation marks the entry for a background refresh; soft tags reach getExpiration', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.set('k4', 'text', ['siteSettings']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await a.updateTags(['siteSettings'], { expire: 3600 });
    expect(await b.get('k4')).toEqual({ text: 'text', revalidate: -1 });
    await a.updateTags(['_N_T_/privacy']);
    expect(await b.getExpiration(['_N_T_/privacy'])).toBeGreaterThan(Date.now() - 60_000);
    expect(await b.getExpiration(['_N_T_/other'])).toBe(0);
  });
});

describe('prerendered pages', () => {
  it('a page rendered by one instance serves another, Buffers and Maps intact; a revalidation on either drops it on both', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.setPage('/route-cache/APP_PAGE/x/$/privacy', '<p>v1</p>', ['_N_T_/privacy', 'privacyPolicy']);
    expect(await b.getPage('/route-cache/APP_PAGE/x/$/privacy')).toEqual({ html: '<p>v1</p>', rsc: 'rsc <p>v1</p>', tree: 'tree' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await b.updateTags(['privacyPolicy']);
    expect(await a.getPage('/route-cache/APP_PAGE/x/$/privacy')).toBeNull();
    expect(await b.getPage('/route-cache/APP_PAGE/x/$/privacy')).toBeNull();
    // A rendered the new version: B, whose own copy is outdated, takes A's from Redis.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await a.setPage('/route-cache/APP_PAGE/x/$/privacy', '<p>v2</p>', ['_N_T_/privacy', 'privacyPolicy']);
    expect(await b.getPage('/route-cache/APP_PAGE/x/$/privacy')).toMatchObject({ html: '<p>v2</p>' });
  });

  it('a page whose render began before a revalidation is outdated on both, though it was stored after it', async () => {
    const [a, b] = [await instance(), await instance()];
    const key = '/route-cache/APP_PAGE/x/$/privacy';
    // B begins rendering from the content as it was; the publish reaches A; then B stores what it rendered.
    const render = await b.beginPage();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await a.updateTags(['privacyPolicy']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await b.finishPage(render, key, '<p>before the publish</p>', ['_N_T_/privacy', 'privacyPolicy']);
    expect(await b.getPage(key)).toBeNull();
    expect(await a.getPage(key)).toBeNull();
  });
});

describe('with Redis down', () => {
  it('stopped: reads answer from memory, a revalidation applies here and reaches the others once Redis is back', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.set('k5', 'cached', ['landingPage']);
    expect(await b.get('k5')).toMatchObject({ text: 'cached' });
    await redis.stop();
    expect(await a.get('k5')).toMatchObject({ text: 'cached' });
    expect(await b.get('never-stored')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await a.updateTags(['landingPage']);
    expect(await a.get('k5')).toBeNull();
    // B cannot know yet: it keeps serving what it has.
    expect(await b.get('k5')).toMatchObject({ text: 'cached' });
    const logs = await a.logs();
    expect(logs.filter((line) => line.includes('is unreachable'))).toHaveLength(1);
    expect(logs.some((line) => line.includes('Revalidated landingPage on this instance only'))).toBe(true);

    await redis.start();
    expect(await eventually(() => a.redisUp(), true)).toBe(true);
    expect(await eventually(async () => (await b.get('k5')) === null, true)).toBe(true);
    expect((await a.logs()).filter((line) => line.includes('is reachable'))).toHaveLength(1);
  });

  it('frozen (SIGSTOP): every call gives up at its deadline and the instance answers from memory', async () => {
    const a = await instance();
    await a.set('k6', 'cached', ['supportPage']);
    await a.setPage('/page', '<p>page</p>', ['supportPage']);
    redis.freeze();
    try {
      expect(await a.get('k6')).toMatchObject({ text: 'cached' });
      expect(await a.get('not-in-memory')).toBeNull();
      expect(await a.getPage('/page')).toMatchObject({ html: '<p>page</p>' });
      await a.set('k7', 'while frozen', ['supportPage']);
      expect(await a.get('k7')).toMatchObject({ text: 'while frozen' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await a.updateTags(['supportPage']);
      expect(await a.get('k6')).toBeNull();
      expect((await a.logs()).filter((line) => line.includes('is unreachable'))).toHaveLength(1);
    } finally {
      redis.thaw();
    }
  });

  it('unreachable from the start: the instance works alone, and joins once Redis appears', async () => {
    await redis.stop();
    const a = await instance();
    await a.set('k8', 'alone', ['landingPage']);
    expect(await a.get('k8')).toMatchObject({ text: 'alone' });
    await redis.start();
    expect(await eventually(() => a.redisUp(), true)).toBe(true);
    const b = await instance();
    await a.set('k9', 'shared', ['landingPage']);
    expect(await b.get('k9')).toMatchObject({ text: 'shared' });
  });
});

describe('without REDIS_URL', () => {
  it("the handlers are Next's own, and nothing connects", async () => {
    const [a, b] = [await startCacheInstance({}), await startCacheInstance({})];
    instances.push(a, b);
    expect(await a.shared()).toBe(false);
    await a.set('k10', 'local', ['landingPage']);
    expect(await a.get('k10')).toMatchObject({ text: 'local' });
    expect(await b.get('k10')).toBeNull();
  });

  it('a page whose render began before a revalidation is outdated, though it was stored after it', async () => {
    const a = await startCacheInstance({});
    instances.push(a);
    const render = await a.beginPage();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await a.revalidatePageTags(['privacyPolicy']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await a.finishPage(render, '/privacy', '<p>before the publish</p>', ['privacyPolicy']);
    expect(await a.getPage('/privacy')).toBeNull();
  });
});
