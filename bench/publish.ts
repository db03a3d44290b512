#!/usr/bin/env node
/**
 * npm run measure:publish — the publish row of npm run bench on its own, for a quick check after a
 * change to caching: on the current build behind nginx's cache (serve:prod's stack, a private copy of
 * the standalone folder and of the seed dataset), PUBLISH_EDITS=20 edits, each posted as a signed
 * webhook, timed from before the webhook is sent to the first GET /privacy through nginx that shows it.
 * INSTANCES=2 (or more) runs that many app instances behind nginx's one upstream, with one redis-server
 * (REDIS_URL, testkit/redis.ts) and the Supabase stand-in over Debian's PostgreSQL (testkit/postgres.ts)
 * as their shared store; the webhook goes through nginx, and each publish is timed until every instance
 * (asked directly) and nginx show it. `--strict` exits 1 when the worst is over 2 s.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';

import { freePort, stopOnSignals } from '../testkit/processes.ts';
import { startStack } from '../testkit/stack.ts';
import { copyStandalone } from '../testkit/standalone.ts';
import { APP_ROOT } from '../testkit/paths.ts';
import { seedCopy } from '../testkit/dataset.ts';
import { startSupabaseStack, type SupabaseStack } from '../testkit/postgrest-harness.ts';
import { measurePublishes } from '../testkit/publish-timing.ts';
import { startRedis, type RedisServer } from '../testkit/redis.ts';
import { currentBuild } from './lib/build.ts';
import { envInt, table, verdict } from './lib/report.ts';

const TARGET_WORST_MS = 2000;
const log = (line: string) => process.stderr.write(`[publish] ${line}\n`);

const dir = path.join(APP_ROOT, 'bench', '.tmp', `publish-${process.pid}`);
const instances = envInt('INSTANCES', 1);
let redis: RedisServer | undefined;
let supabase: SupabaseStack | undefined;
const stopShared = async () => {
  await supabase?.close();
  await redis?.close();
};
stopOnSignals(async () => {
  await stopShared();
  await rm(dir, { recursive: true, force: true });
});
const secret = randomBytes(16).toString('hex');
const contentFile = await seedCopy(dir);
const paths = await copyStandalone(await currentBuild(log), path.join(dir, 'standalone'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: path.join(dir, 'data'),
  CONTENT_FILE: contentFile,
  SANITY_REVALIDATE_SECRET: secret,
};
if (instances > 1) {
  redis = await startRedis();
  supabase = await startSupabaseStack({ database: 'postgres' });
  Object.assign(env, {
    REDIS_URL: redis.url,
    NEXT_PUBLIC_SUPABASE_URL: supabase.url,
    NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: supabase.publishableKey,
  });
}
const stack = await startStack({ port: await freePort(), instances, runDir: path.join(dir, 'run'), env, build: 'never', paths, log });
try {
  const edits = envInt('PUBLISH_EDITS', 20);
  // One instance: what visitors see, through nginx. Several: each instance asked directly, and nginx.
  const watch = instances > 1 ? [...stack.apps.map((app) => app.origin), stack.url] : [stack.url];
  const result = await measurePublishes({ contentFile, secret, publishTo: stack.url, watch }, { count: edits, log });
  const met = result.missed === 0 && result.worst <= TARGET_WORST_MS;
  const rows = [
    [
      instances > 1 ? `publish → visible on all ${instances} instances and through nginx` : 'publish → visible through the cache',
      `median ${result.median} ms, worst ${result.worst} ms (${edits} edits, ${result.missed} not seen)`,
      `worst <= ${TARGET_WORST_MS} ms`,
      verdict(met),
    ],
  ];
  process.stdout.write(`${table(rows)}\n`);
  if (process.argv.includes('--strict') && !met) process.exitCode = 1;
} finally {
  await stack.stop();
  await stopShared();
  await rm(dir, { recursive: true, force: true });
}
