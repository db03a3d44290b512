import { describe, expect, it } from 'vitest';

import { createDefaultCacheHandler, FileSystemCache, NEXT_INTERNALS, nextTags } from './next-internals.ts';

/**
 * The files of Next that the cache handlers load are no public API: after an upgrade of `next`, this says
 * which one moved or changed shape before a server starts with it.
 */
describe("Next's internals the cache handlers load", () => {
  it('are all where they were', () => {
    for (const [name, file] of Object.entries(NEXT_INTERNALS)) expect(() => import.meta.resolve(file), name).not.toThrow();
  });

  it("the default 'use cache' handler has the documented handler's methods, and keeps an entry", async () => {
    const handler = createDefaultCacheHandler(1024 * 1024);
    for (const method of ['get', 'set', 'refreshTags', 'getExpiration', 'updateTags'] as const)
      expect(typeof handler[method], method).toBe('function');
    const bytes = new TextEncoder().encode('kept');
    const entry = {
      value: new ReadableStream<Uint8Array>({ start: (controller) => (controller.enqueue(bytes), controller.close()) }),
      tags: ['t'],
      stale: 60,
      timestamp: Date.now(),
      expire: 120,
      revalidate: 60,
    };
    await handler.set('key', Promise.resolve(entry));
    const hit = await handler.get('key', []);
    expect(hit?.tags).toEqual(['t']);
    expect(await new Response(hit!.value).text()).toBe('kept');
  });

  it('the page cache is a class with get and set', () => {
    expect(typeof FileSystemCache).toBe('function');
    for (const method of ['get', 'set'] as const) expect(typeof FileSystemCache.prototype[method], method).toBe('function');
  });

  it('the map of revalidated tags says an entry made before a tag expired is expired, and one made after is not', () => {
    expect(nextTags.tagsManifest).toBeInstanceOf(Map);
    const now = Date.now();
    const tag = `next-internals-${now}`;
    expect(nextTags.areTagsExpired([tag], now - 1000)).toBe(false);
    nextTags.tagsManifest.set(tag, { expired: now });
    expect(nextTags.areTagsExpired([tag], now - 1000)).toBe(true);
    expect(nextTags.areTagsExpired([tag], now + 1000)).toBe(false);
    expect(typeof nextTags.areTagsStale).toBe('function');
    nextTags.tagsManifest.delete(tag);
  });
});
