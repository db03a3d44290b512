import { afterEach, describe, expect, it, vi } from 'vitest';

import { memoize } from './memo';

describe('memoize', () => {
  afterEach(() => vi.restoreAllMocks());
  vi.spyOn(console, 'error').mockImplementation(() => {});

  it('loads once for concurrent callers, and again only after the TTL', async () => {
    let clock = 0;
    const load = vi.fn(async () => `v${load.mock.calls.length}`);
    const get = memoize(load, { ttlMs: 1000, timeoutMs: 100, fallback: 'default', now: () => clock });
    expect(await Promise.all(Array.from({ length: 20 }, get))).toEqual(Array(20).fill('v1'));
    expect(load).toHaveBeenCalledTimes(1);
    clock = 999;
    expect(await get()).toBe('v1');
    clock = 1000;
    expect(await get()).toBe('v2');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('gives the fallback when the first load fails, and the last good value when a later one does', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let clock = 0;
    let fail = true;
    const get = memoize(async () => (fail ? Promise.reject(new Error('down')) : 'fresh'), {
      ttlMs: 10,
      timeoutMs: 100,
      fallback: 'default',
      now: () => clock,
    });
    expect(await get()).toBe('default');
    fail = false;
    clock = 10;
    expect(await get()).toBe('fresh');
    fail = true;
    clock = 20;
    expect(await get()).toBe('fresh');
  });

  it('does not wait past the timeout for a source that never answers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const get = memoize(() => new Promise<string>(() => {}), { ttlMs: 1000, timeoutMs: 50, fallback: 'default' });
    const started = performance.now();
    expect(await get()).toBe('default');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
