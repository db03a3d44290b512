#!/usr/bin/env node
/**
 * npm run measure:publish — the publish row of npm run bench on its own, for a quick check after a
 * change to caching: on the current build behind nginx's cache (serve:prod's stack, a private copy of
 * the standalone folder and of the seed dataset), PUBLISH_EDITS=20 edits, each posted as a signed
 * webhook, timed from before the webhook is sent to the first GET /privacy through nginx that shows it.
 * `--strict` exits 1 when the worst is over 2 s.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';

import { freePort, stopOnSignals } from '../testkit/processes.ts';
import { startStack } from '../testkit/stack.ts';
import { copyStandalone } from '../testkit/standalone.ts';
import { APP_ROOT } from '../testkit/paths.ts';
import { seedCopy } from '../testkit/dataset.ts';
import { measurePublishes } from '../testkit/publish-timing.ts';
import { currentBuild } from './lib/build.ts';
import { envInt, table, verdict } from './lib/report.ts';

const TARGET_WORST_MS = 2000;
const log = (line: string) => process.stderr.write(`[publish] ${line}\n`);

const dir = path.join(APP_ROOT, 'bench', '.tmp', `publish-${process.pid}`);
stopOnSignals(() => rm(dir, { recursive: true, force: true }));
const secret = randomBytes(16).toString('hex');
const contentFile = await seedCopy(dir);
const paths = await copyStandalone(await currentBuild(log), path.join(dir, 'standalone'));
const env = { ...process.env, DATA_DIR: path.join(dir, 'data'), CONTENT_FILE: contentFile, SANITY_REVALIDATE_SECRET: secret };
const stack = await startStack({ port: await freePort(), runDir: path.join(dir, 'run'), env, build: 'never', paths, log });
try {
  const edits = envInt('PUBLISH_EDITS', 20);
  const result = await measurePublishes({ contentFile, secret, publishTo: stack.url, watch: [stack.url] }, { count: edits, log });
  const met = result.missed === 0 && result.worst <= TARGET_WORST_MS;
  const rows = [
    [
      'publish → visible through the cache',
      `median ${result.median} ms, worst ${result.worst} ms (${edits} edits, ${result.missed} not seen)`,
      `worst <= ${TARGET_WORST_MS} ms`,
      verdict(met),
    ],
  ];
  process.stdout.write(`${table(rows)}\n`);
  if (process.argv.includes('--strict') && !met) process.exitCode = 1;
} finally {
  await stack.stop();
  await rm(dir, { recursive: true, force: true });
}
