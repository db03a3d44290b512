/**
 * One "server instance" of the cache handlers, in a worker thread: its own copies of every module, so
 * its own Next tags manifest and its own Redis link, as a second `next start` process would have.
 * testkit/cache-instance.ts drives it. Loaded by Node itself: relative imports with real extensions.
 */
import { promises as fsp, readFileSync, existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

import type { CacheHandlerContext } from 'next/dist/server/lib/incremental-cache';

const logs: string[] = [];
for (const level of ['log', 'error', 'warn'] as const)
  console[level] = (...parts: unknown[]) => void logs.push(parts.map(String).join(' '));

const { default: useCache } = await import('../lib/cache/use-cache-handler.ts');
const { default: PageCache } = await import('../lib/cache/incremental-handler.ts');
const { sharedRedis } = await import('../lib/cache/redis-link.ts');

const { serverDistDir } = workerData as { serverDistDir: string };
const context = {
  fs: {
    existsSync,
    readFile: (file: string) => fsp.readFile(file),
    readFileSync: (file: string) => readFileSync(file),
    writeFile: (file: string, data: string | Buffer) => fsp.writeFile(file, data),
    mkdir: (dir: string) => fsp.mkdir(dir, { recursive: true }),
    stat: (file: string) => fsp.stat(file),
  },
  serverDistDir,
  flushToDisk: false,
  maxMemoryCacheSize: 50 * 1024 * 1024,
  revalidatedTags: [],
  _requestHeaders: {},
} as unknown as CacheHandlerContext;
const pages = () => new PageCache(context as never);
const renders: ReturnType<typeof pages>[] = [];

const streamOf = (text: string) => new Response(text).body!;
const YEAR = 365 * 24 * 3600;

const operations = {
  async set(key: string, text: string, tags: string[]) {
    await useCache.set(
      key,
      Promise.resolve({ value: streamOf(text), tags, stale: 300, timestamp: Date.now(), expire: YEAR, revalidate: YEAR }),
    );
  },
  async get(key: string, softTags: string[] = []) {
    await useCache.refreshTags();
    const entry = await useCache.get(key, softTags);
    return entry ? { text: await new Response(entry.value).text(), revalidate: entry.revalidate } : null;
  },
  updateTags: (tags: string[], durations?: { expire?: number }) => useCache.updateTags(tags, durations),
  getExpiration: async (tags: string[]) => (await useCache.refreshTags(), useCache.getExpiration(tags)),
  async setPage(key: string, html: string, tags: string[], cache = pages()) {
    const page = {
      kind: 'APP_PAGE',
      html,
      rscData: Buffer.from(`rsc ${html}`),
      headers: { 'x-next-cache-tags': tags.join(',') },
      status: 200,
      postponed: undefined,
      segmentData: new Map([['/_tree', Buffer.from('tree')]]),
    };
    await cache.set(key, page as never, { cacheControl: { revalidate: false, expire: undefined } } as never);
  },
  /** A request that begins rendering a page now (Next makes its page cache as the request starts); finishPage stores it. */
  beginPage() {
    renders.push(pages());
    return renders.length - 1;
  },
  finishPage: (render: number, key: string, html: string, tags: string[]) => operations.setPage(key, html, tags, renders[render]),
  async getPage(key: string) {
    const entry = await pages().get(key, { kind: 'APP_PAGE', isFallback: false } as never);
    const value = entry?.value as { html: string; rscData: Buffer; segmentData: Map<string, Buffer> } | undefined;
    return value ? { html: value.html, rsc: value.rscData.toString(), tree: value.segmentData.get('/_tree')?.toString() } : null;
  },
  revalidatePageTags: (tags: string[]) => pages().revalidateTag(tags, { expire: 0 }),
  shared: () => sharedRedis() !== null,
  redisUp: () => sharedRedis()?.up ?? false,
  logs: () => logs.splice(0),
};
export type Operations = typeof operations;

async function answer({ id, name, args }: { id: number; name: keyof Operations; args: unknown[] }) {
  try {
    const result = await (operations[name] as (...a: unknown[]) => unknown)(...args);
    parentPort!.postMessage({ id, result });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).stack ?? String(error) });
  }
}
parentPort!.on('message', (message: Parameters<typeof answer>[0]) => void answer(message));
parentPort!.postMessage({ ready: true });
