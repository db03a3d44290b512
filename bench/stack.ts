#!/usr/bin/env node
/**
 * npm run measure:stack — what the deployed shape (npm run serve:prod's stack: the standalone server
 * behind nginx) holds in memory: the standalone server's resident memory (its worker thread, where the
 * embedded store runs, included) idle after its start and after each phase of a load like the stack's
 * smoke test, only bigger, with nginx's memory (master and workers) beside it:
 *
 *   pages        GET /, /support and /privacy through nginx (its cache answers; the app refreshes them)
 *   submissions  support requests through nginx, as the page's script sends them
 *   publishes    privacy-policy edits and signed webhooks, each waited for through the cache
 *
 * Runs on the current build (built first when missing or older than the sources, as serve:prod does)
 * in a temp dir under bench/.tmp; writes bench/stack-memory-report.json.
 * Environment: STACK_SECONDS=10 (of page views, and of submissions), STACK_CONNECTIONS=20, STACK_PUBLISHES=10.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { freePort, memory, sleep, stopOnSignals, treeRss } from '../testkit/processes.ts';
import { measurePublishes } from '../testkit/publish-timing.ts';
import { startStack } from '../testkit/stack.ts';
import { APP_ROOT } from '../lib/app-root.mjs';
import { PUBLIC_PATHS } from '../lib/public-pages.ts';
import { seedCopy } from '../testkit/dataset.ts';
import { pageLoad, submissionLoad } from './lib/http-load.ts';
import { envInt, table } from './lib/report.ts';

const log = (line: string) => process.stderr.write(`[stack] ${line}\n`);
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const seconds = envInt('STACK_SECONDS', 10);
const connections = envInt('STACK_CONNECTIONS', 20);
const edits = envInt('STACK_PUBLISHES', 10);

const dir = path.join(APP_ROOT, 'bench', '.tmp', `stack-${process.pid}`);
stopOnSignals(() => rm(dir, { recursive: true, force: true }));
const secret = randomBytes(16).toString('hex');
const contentFile = await seedCopy(dir);
const env = {
  ...process.env,
  DATA_DIR: path.join(dir, 'data'),
  CONTENT_FILE: contentFile,
  SANITY_REVALIDATE_SECRET: secret,
  RATE_LIMIT_MAX: '100000000',
};
const stack = await startStack({ port: await freePort(), runDir: path.join(dir, 'run'), env, log });

const phases: { phase: string; appRssMiB: number; appPeakMiB: number; nginxRssMiB: number; detail: string }[] = [];
function sample(phase: string, detail = '') {
  const app = memory(stack.apps[0]!.pid);
  phases.push({
    phase,
    appRssMiB: mib(app.rssBytes),
    appPeakMiB: mib(app.peakRssBytes),
    nginxRssMiB: mib(treeRss(stack.nginx.pid!).total),
    detail,
  });
  log(`${phase}: ${JSON.stringify(phases.at(-1))}`);
}

try {
  await sleep(5000);
  sample('idle after start');
  let views = 0;
  for (const page of PUBLIC_PATHS) views += (await pageLoad(`${stack.url}${page}`, connections, seconds / PUBLIC_PATHS.length)).ok;
  sample('after page views', `${views} page views through the cache (${connections} connections)`);
  const submissions = await submissionLoad(stack.url, 'stack ', connections, seconds);
  sample('after submissions', `${submissions.ok} accepted, ${Math.round(submissions.ok / submissions.seconds)} per second`);
  await measurePublishes({ contentFile, secret, publishTo: stack.url, watch: [stack.url] }, { count: edits, log });
  sample('after publishes', `${edits} edits, each seen through the cache`);
} finally {
  await stack.stop();
  await rm(dir, { recursive: true, force: true });
}

const report = { generatedAt: new Date().toISOString(), connections, seconds, phases };
await mkdir(path.join(APP_ROOT, 'bench'), { recursive: true });
await writeFile(path.join(APP_ROOT, 'bench', 'stack-memory-report.json'), `${JSON.stringify(report, null, 2)}\n`);
const rows = phases.map((p) => [p.phase, `${p.appRssMiB} MiB`, `${p.appPeakMiB} MiB`, `${p.nginxRssMiB} MiB`, p.detail]);
process.stdout.write(`${table([['phase', 'app RSS', 'app peak', 'nginx RSS', ''], ...rows])}\n`);
