/**
 * Two production servers of the current build (`next start`, testkit/app-server.ts) sharing one
 * redis-server (testkit/redis.ts) and one copy of the seed dataset, each with its own embedded store:
 * two instances of one site, for the shared-cache test and npm run bench -- shared-cache.
 *
 * Only relative imports with real extensions and packages: plain `node` scripts import this file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startAppServer, type AppServer } from './app-server.ts';
import { seedCopy } from './dataset.ts';
import { startRedis, type RedisServer } from './redis.ts';
import { preparedDataDir } from './store.ts';

export type SharedCachePair = {
  redis: RedisServer;
  instances: [AppServer, AppServer];
  contentFile: string;
  secret: string;
  stop(): Promise<void>;
};

export async function startSharedCachePair(): Promise<SharedCachePair> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'shared-cache-'));
  const contentFile = await seedCopy(dir);
  const secret = `shared-cache-${process.pid}`;
  const redis = await startRedis();
  const env = async (name: string) => ({
    REDIS_URL: redis.url,
    CONTENT_FILE: contentFile,
    DATA_DIR: await preparedDataDir(path.join(dir, name)),
    SANITY_REVALIDATE_SECRET: secret,
  });
  const started = await Promise.allSettled([startAppServer(await env('a')), startAppServer(await env('b'))]);
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await redis.close();
    await rm(dir, { recursive: true, force: true });
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { redis, instances: servers as [AppServer, AppServer], contentFile, secret, stop };
}
