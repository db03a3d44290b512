#!/usr/bin/env node
/**
 * npm run measure:stack — what the deployed shape (npm run serve:prod's stack: the standalone server
 * behind nginx) holds in memory: the standalone server's resident memory (its worker thread, where the
 * embedded store runs, included) when idle after its start, and after each phase of a load like the
 * stack's smoke test, only bigger:
 *
 *   pages        GET /, /support and /privacy through nginx (its cache answers; the app refreshes them)
 *   submissions  support requests through nginx, as the page's script sends them; the first one creates
 *                the embedded store (PGlite's initdb), the rest insert
 *   publishes    privacy-policy edits and signed webhooks, each waited for through the cache
 *
 * and the server's peak (VmHWM) at the end, with nginx's memory (master and workers) beside it. Runs
 * on the current build (built first when missing or older than the sources, as serve:prod does), in
 * a temp dir under bench/.tmp; writes bench/stack-memory-report.json.
 *
 * Environment: STACK_SECONDS=10 (seconds of page views, and of submissions), STACK_CONNECTIONS=20,
 * STACK_PUBLISHES=10, BENCH_CLIENT=wrk|node (default wrk when installed).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { APP_ROOT } from '../lib/app-root.mjs';
import { PUBLIC_PATHS } from '../lib/public-pages.ts';
import { actionSubmissionLoad, getLoad, hasWrk, makeRunDir } from './bench.mjs';
import { envInt } from './lib/env.mjs';
import { freePort, memory, sleep, treeRss } from '../deploy/processes.ts';
import { postWebhook, setSectionText } from './lib/publish.mjs';
import { startStack } from '../deploy/stack.ts';
import { table } from './lib/table.mjs';

const log = (line) => process.stderr.write(`[stack] ${line}\n`);
const mib = (bytes) => Math.round(bytes / 2 ** 20);

async function main() {
  const seconds = envInt('STACK_SECONDS', 10);
  const connections = envInt('STACK_CONNECTIONS', 20);
  const publishes = envInt('STACK_PUBLISHES', 10);
  const client = process.env.BENCH_CLIENT || (hasWrk() ? 'wrk' : 'node');
  const run = await makeRunDir('stack');
  const secret = randomBytes(16).toString('hex');
  const stack = await startStack({
    port: await freePort(),
    runDir: path.join(run.dir, 'run'),
    env: { ...process.env, DATA_DIR: run.dataDir, CONTENT_FILE: run.contentFile, SANITY_REVALIDATE_SECRET: secret, RATE_LIMIT_MAX: '100000000' },
    log,
  });
  const stopAll = async () => {
    await stack.stop();
    await rm(run.dir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stopAll().finally(() => process.exit(130)));

  const phases = [];
  const sample = (phase, detail) => {
    const app = memory(/** @type {number} */ (stack.appPid()));
    const nginx = treeRss(stack.nginxPid).total;
    phases.push({ phase, appRssMiB: mib(app.rssBytes), appPeakMiB: mib(app.peakRssBytes), nginxRssMiB: mib(nginx), detail });
    log(`${phase}: app ${mib(app.rssBytes)} MiB (peak ${mib(app.peakRssBytes)} MiB), nginx ${mib(nginx)} MiB${detail ? `; ${detail}` : ''}`);
  };

  try {
    await sleep(5000);
    sample('idle after start');

    const pageRuns = [];
    for (const page of PUBLIC_PATHS) {
      pageRuns.push(await getLoad({ origin: stack.url, path: page, client, connections, durationMs: (seconds * 1000) / PUBLIC_PATHS.length, warmupMs: 0 }));
    }
    const views = pageRuns.reduce((total, result) => total + result.ok, 0);
    sample('after page views', `${views} page views through the cache (${client}, ${connections} connections)`);

    const submissions = await actionSubmissionLoad({ origin: stack.url, client, connections, durationMs: seconds * 1000, runId: `stack${process.pid}` });
    sample('after submissions', `${submissions.ok + submissions.warmupAccepted} accepted, ${submissions.rps} per second`);

    for (let edit = 1; edit <= publishes; edit++) {
      const text = `Stack edit ${edit} of run ${process.pid}`;
      await setSectionText(run.contentFile, edit - 1, text);
      await postWebhook(stack.url, secret, { _type: 'privacyPolicy', _id: 'privacyPolicy' });
      while (!(await (await fetch(`${stack.url}/privacy`)).text()).includes(text)) await sleep(50);
    }
    sample('after publishes', `${publishes} edits, each seen through the cache`);
  } finally {
    await stopAll();
  }

  const report = { generatedAt: new Date().toISOString(), client, connections, seconds, phases };
  await mkdir(path.join(APP_ROOT, 'bench'), { recursive: true });
  await writeFile(path.join(APP_ROOT, 'bench', 'stack-memory-report.json'), `${JSON.stringify(report, null, 2)}\n`);
  const rows = [['phase', 'app RSS', 'app peak', 'nginx RSS', ''], ...phases.map((p) => [p.phase, `${p.appRssMiB} MiB`, `${p.appPeakMiB} MiB`, `${p.nginxRssMiB} MiB`, p.detail ?? ''])];
  process.stdout.write(`${table(rows)}\n`);
  log('wrote bench/stack-memory-report.json');
}

main().catch((error) => {
  console.error(error?.stack ?? error);
  process.exit(1);
});
