/**
 * A stand-in for one server instance's caches (lib/cache/): the 'use cache' handler and the page cache
 * as `next start` loads them, in a worker thread of their own (testkit/cache-instance-worker.ts), with
 * the REDIS_URL given. Two of them share nothing but Redis, as two processes would.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { Operations } from './cache-instance-worker.ts';

type Remote = { [K in keyof Operations]: (...args: Parameters<Operations[K]>) => Promise<Awaited<ReturnType<Operations[K]>>> };
export type CacheInstance = Remote & { close(): Promise<void> };

export async function startCacheInstance(env: { REDIS_URL?: string }): Promise<CacheInstance> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cache-instance-'));
  await mkdir(path.join(dir, 'server'));
  await writeFile(path.join(dir, 'BUILD_ID'), 'test-build');
  const worker = new Worker(new URL('./cache-instance-worker.ts', import.meta.url), {
    workerData: { serverDistDir: path.join(dir, 'server') },
    env: { ...process.env, REDIS_URL: env.REDIS_URL ?? '' },
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { ready?: true; id?: number; result?: unknown; error?: string }) => {
      if (message.ready) return resolve();
      const call = pending.get(message.id!);
      pending.delete(message.id!);
      if (message.error) call?.reject(new Error(message.error));
      else call?.resolve(message.result);
    });
  });
  await ready;
  const call =
    (name: string) =>
    (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, name, args });
      });
  const close = async () => {
    await worker.terminate();
    await rm(dir, { recursive: true, force: true });
  };
  // Not a thenable: `then` is no operation.
  return new Proxy({} as CacheInstance, {
    get: (_target, name: string) => (name === 'then' ? undefined : name === 'close' ? close : call(name)),
  });
}
