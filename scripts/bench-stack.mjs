#!/usr/bin/env node
/**
 * npm run bench:stack — the site in the shape it is deployed in (serve:prod's stack: the standalone
 * server behind nginx's cache, deploy/), against the limits of this machine, in one run on the
 * production build (built first when missing or older than the sources, as serve:prod does):
 *
 *   /studio      time to first byte of its first load after the app starts, and of the loads after it
 *   /            requests/s and p99 through the cache, against the same nginx serving the same
 *                prerendered HTML file from disk (scripts/lib/static-nginx.mjs)
 *   submissions  support requests/s through the cache, as the page's script sends them, against the app
 *                alone (the standalone server: what `next start` runs for this build), each with its own
 *                store; every accepted request must be a stored row
 *   publish      edits of the dataset copy, each posted as a signed webhook; time from the webhook's
 *                answer to the first GET through nginx that shows the edit
 *
 * The two sides of each comparison are up at once and measured in alternating rounds with the same
 * client and settings. Everything runs on 127.0.0.1, on a private copy of the standalone folder (a
 * publish rewrites its pages), with temp files under bench/.tmp. Prints a table with the targets and
 * writes bench/stack-report.json.
 *
 * Environment (all optional):
 *   BENCH_STACK_ROUNDS=4          alternating rounds of each comparison
 *   BENCH_STACK_SECONDS=12        measured seconds of `/` per side (split into the rounds; +3 s warm-up each)
 *   BENCH_STACK_SUBMIT_SECONDS=8  measured seconds of submissions per side (split into the rounds)
 *   BENCH_STACK_CONNECTIONS=50    concurrent keep-alive connections of the load client
 *   BENCH_STACK_EDITS=20          publishes
 *   BENCH_STACK_STUDIO_LOADS=10   /studio loads after the first
 *   BENCH_CLIENT=wrk|node         default wrk when installed
 * `--strict` exits 1 when a target is missed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { APP_ROOT } from '../lib/app-root.mjs';
import { actionSubmissionLoad, getLoad, hasWrk, makeRunDir } from './bench.mjs';
import { envInt } from './lib/env.mjs';
import { firstByteMs } from './lib/first-byte.mjs';
import { findNginx, INSTALL_HINT } from '../deploy/nginx.ts';
import { freePort, sleep, stopAllProcesses, waitForHttp } from '../deploy/processes.ts';
import { postWebhook, setSectionText } from './lib/publish.mjs';
import { alternate, combine } from './lib/rounds.mjs';
import { startStack } from '../deploy/stack.ts';
import { buildPaths, buildState, copyStandalone, prepareStatic, prerenderedHome, runBuild, startApp } from '../deploy/standalone.ts';
import { startStaticNginx } from './lib/static-nginx.mjs';
import { withStoreCopy } from './lib/store.ts';
import { median, table } from './lib/table.mjs';

const TARGETS = {
  pagesOverFile: 0.8,
  publishWorstMs: 2000,
  submissionsOverApp: 0.9,
  lost: 0,
  studioFirstMs: 100,
};
/** High enough that no submission of the run is refused: the bench measures the store, not the limiter. */
const NO_RATE_LIMIT = {
  RATE_LIMIT_MAX: '1000000000',
  RATE_LIMIT_SITE_MAX: '1000000000',
};
const PUBLISH_TIMEOUT_MS = 10_000;

const log = (line) => process.stderr.write(`[bench:stack] ${line}\n`);

const settings = () => ({
  rounds: envInt('BENCH_STACK_ROUNDS', 4),
  pageSeconds: envInt('BENCH_STACK_SECONDS', 12),
  warmupSeconds: 3,
  submitSeconds: envInt('BENCH_STACK_SUBMIT_SECONDS', 8),
  connections: envInt('BENCH_STACK_CONNECTIONS', 50),
  edits: envInt('BENCH_STACK_EDITS', 20),
  studioLoads: envInt('BENCH_STACK_STUDIO_LOADS', 10),
  client: process.env.BENCH_CLIENT || (hasWrk() ? 'wrk' : 'node'),
});

/** The production build, built when missing or stale, with its static files compressed for nginx. */
async function currentBuild() {
  const paths = buildPaths(process.env.NEXT_DIST_DIR || undefined);
  const { state, reason } = buildState(paths);
  if (state !== 'current') {
    log(`building (${reason}) ...`);
    runBuild(process.env);
  }
  await prepareStatic(paths);
  return paths;
}

/** /studio's first load after the app started (nothing asked for it before), then `loads` more. */
async function studio(origin, loads) {
  const first = await firstByteMs(`${origin}/studio`);
  const later = [];
  for (let load = 0; load < loads; load++) later.push((await firstByteMs(`${origin}/studio`)).ms);
  return {
    status: first.status,
    firstMs: first.ms,
    laterMedianMs: median(later),
    laterMs: later,
  };
}

/** GET / through the cache and from the file, in alternating rounds after a warm-up of each. */
async function pages(origins, config) {
  const load = (origin, durationMs) =>
    getLoad({
      origin,
      path: '/',
      client: config.client,
      connections: config.connections,
      durationMs,
      warmupMs: 0,
    });
  for (const origin of Object.values(origins)) await load(origin, config.warmupSeconds * 1000);
  const runs = await alternate(config.rounds, /** @type {const} */ (['cache', 'file']), (side) =>
    load(origins[side], (config.pageSeconds * 1000) / config.rounds),
  );
  const cache = combine(runs.cache);
  const file = combine(runs.file);
  return {
    cache,
    file,
    ratio: Number((cache.perSecond / file.perSecond).toFixed(2)),
  };
}

/** Support submissions through the cache and to the app alone, in alternating rounds, each round its own subjects. */
async function submissions(origins, config) {
  const runs = await alternate(config.rounds, /** @type {const} */ (['cache', 'app']), (side, round) =>
    actionSubmissionLoad({
      origin: origins[side],
      client: config.client,
      connections: config.connections,
      durationMs: (config.submitSeconds * 1000) / config.rounds,
      runId: `stack${process.pid}${side}${round}`,
    }),
  );
  const side = (name) => ({
    ...combine(runs[name]),
    // The first request of each round (sent alone, outside the timing) is accepted too.
    accepted: runs[name].reduce((total, run) => total + run.ok + run.warmupAccepted, 0),
    subjectPrefixes: runs[name].map((run) => run.subjectPrefix),
  });
  const cache = side('cache');
  const app = side('app');
  return {
    cache,
    app,
    ratio: Number((cache.perSecond / app.perSecond).toFixed(2)),
  };
}

/** Rows of the store in `dataDir` whose subject starts with one of `prefixes`, read from a copy. */
function storedRows(dataDir, prefixes) {
  return withStoreCopy(dataDir, async (db) => {
    let rows = 0;
    for (const prefix of prefixes) {
      const result = /** @type {{ rows: { n: number }[] }} */ (
        await db.query('select count(*)::int as n from support_requests where starts_with(subject, $1)', [prefix])
      );
      rows += result.rows[0]?.n ?? 0;
    }
    return rows;
  });
}

/** `edits` publishes: each edits the dataset, posts the webhook, and waits for the edit on /privacy through nginx. */
async function publishes({ origin, contentFile, secret, edits }) {
  const times = [];
  for (let edit = 1; edit <= edits; edit++) {
    const text = `Stack bench edit ${edit} of run ${process.pid} at ${Date.now()}`;
    await setSectionText(contentFile, edit - 1, text);
    await postWebhook(origin, secret, {
      _type: 'privacyPolicy',
      _id: 'privacyPolicy',
    });
    const answered = performance.now();
    let seenMs = null;
    while (performance.now() - answered < PUBLISH_TIMEOUT_MS) {
      if ((await (await fetch(`${origin}/privacy`)).text()).includes(text)) {
        seenMs = Math.round(performance.now() - answered);
        break;
      }
      await sleep(20);
    }
    times.push(seenMs);
    log(`edit ${edit}: ${seenMs == null ? `not visible within ${PUBLISH_TIMEOUT_MS} ms` : `${seenMs} ms`}`);
  }
  const seen = /** @type {number[]} */ (times.filter((ms) => ms != null));
  return {
    edits,
    visible: seen.length,
    medianMs: median(seen),
    worstMs: seen.length === edits ? Math.max(...seen) : null,
    times,
  };
}

const ok = (met) => (met ? 'ok' : 'MISSED');
const ms = (value) => (value == null ? 'n/a' : `${Math.round(value * 10) / 10} ms`);

/**
 * Accepted requests without a row are lost. Rows without an accepted answer are expected up to one per
 * connection and round: wrk stops counting at the end of its duration, while the requests it still had
 * open are stored by the app; more than that would be rows nobody was told about.
 */
function submissionRow(label, side, config) {
  const lost = Math.max(0, side.accepted - side.stored);
  const unanswered = Math.max(0, side.stored - side.accepted);
  const cutOff = config.client === 'wrk' ? config.connections * config.rounds : 0;
  return [
    label,
    `${side.perSecond}/s; accepted ${side.accepted}, stored ${side.stored}: lost ${lost}${unanswered ? `, ${unanswered} open when wrk stopped` : ''}`,
    `lost ${TARGETS.lost}, open <= ${cutOff}`,
    ok(lost === TARGETS.lost && unanswered <= cutOff),
  ];
}

function report(result) {
  const { pages: p, submissions: s, publish, studio: st, config } = result;
  const rows = [
    ['measure', 'result', 'target', ''],
    ['/ through the cache', `${p.cache.perSecond} req/s, p99 ${ms(p.cache.p99Ms)}`, '', ''],
    ['/ as a file from disk (nginx)', `${p.file.perSecond} req/s, p99 ${ms(p.file.p99Ms)}`, '', ''],
    ['  cache / file', `${p.ratio}×`, `>= ${TARGETS.pagesOverFile}×`, ok(p.ratio >= TARGETS.pagesOverFile)],
    [
      'publish → visible through the cache',
      `median ${ms(publish.medianMs)}, worst ${publish.worstMs == null ? `${publish.edits - publish.visible} never seen` : ms(publish.worstMs)} (${publish.edits} edits)`,
      `worst <= ${TARGETS.publishWorstMs} ms`,
      ok(publish.worstMs != null && publish.worstMs <= TARGETS.publishWorstMs),
    ],
    submissionRow('submissions through the cache', s.cache, config),
    submissionRow('submissions to the app alone', s.app, config),
    ['  cache / app alone', `${s.ratio}×`, `>= ${TARGETS.submissionsOverApp}×`, ok(s.ratio >= TARGETS.submissionsOverApp)],
    [
      '/studio first byte, first load after start',
      `${ms(st.firstMs)} (status ${st.status})`,
      `<= ${TARGETS.studioFirstMs} ms`,
      ok(st.status === 200 && st.firstMs <= TARGETS.studioFirstMs),
    ],
    [`/studio first byte, later loads (median of ${st.laterMs.length})`, ms(st.laterMedianMs), '', ''],
  ];
  const header = `bench:stack  ${result.generatedAt}  ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}
${config.client}, ${config.connections} connections, ${config.rounds} alternating rounds: / ${config.pageSeconds} s per side (+${config.warmupSeconds} s warm-up), submissions ${config.submitSeconds} s per side`;
  return {
    text: `${header}\n\n${table(rows)}\n`,
    missed: rows.some((row) => row[3] === 'MISSED'),
  };
}

async function main() {
  const strict = process.argv.includes('--strict');
  const config = settings();
  const bin = findNginx(process.env);
  if (!bin) throw new Error(`nginx was not found: ${INSTALL_HINT}`);
  const run = await makeRunDir('bench-stack');
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.once(signal, () => void stopAllProcesses().finally(() => rm(run.dir, { recursive: true, force: true }).finally(() => process.exit(130))));
  }
  const secret = randomBytes(16).toString('hex');
  const dataDirs = {
    cache: path.join(run.dir, 'data-stack'),
    app: path.join(run.dir, 'data-app'),
  };
  const { TRUSTED_PROXY_HOPS: _, ...baseEnv } = process.env;
  const env = {
    ...baseEnv,
    ...NO_RATE_LIMIT,
    CONTENT_FILE: run.contentFile,
    SANITY_REVALIDATE_SECRET: secret,
  };

  /** @type {Record<string, unknown>} */
  const result = {
    generatedAt: new Date().toISOString(),
    config,
    targets: TARGETS,
  };
  try {
    await measure();
    const counted = /** @type {Awaited<ReturnType<typeof submissions>>} */ (result.submissions);
    for (const side of /** @type {const} */ (['cache', 'app'])) {
      Object.assign(counted[side], {
        stored: await storedRows(dataDirs[side], counted[side].subjectPrefixes),
      });
    }
  } finally {
    await rm(run.dir, { recursive: true, force: true });
  }

  const { text, missed } = report(/** @type {any} */ (result));
  await mkdir(path.join(APP_ROOT, 'bench'), { recursive: true });
  await writeFile(path.join(APP_ROOT, 'bench', 'stack-report.json'), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(text);
  log('wrote bench/stack-report.json');
  if (strict && missed) process.exitCode = 1;

  /** Every measurement, with the servers up only for them: the stores are read after they stopped. */
  async function measure() {
    const stop = [];
    try {
      const paths = await copyStandalone(await currentBuild(), path.join(run.dir, 'standalone'));
      const stack = await startStack({
        port: await freePort(),
        runDir: path.join(run.dir, 'stack'),
        env: { ...env, DATA_DIR: dataDirs.cache },
        build: 'never',
        paths,
        log,
      });
      stop.push(stack.stop);
      log(`stack at ${stack.url}; /studio first`);
      result.studio = await studio(stack.url, config.studioLoads);

      const appPort = await freePort();
      const app = startApp({
        paths,
        port: appPort,
        env: { ...env, DATA_DIR: dataDirs.app },
      });
      stop.push(() => app.stop());
      const appOrigin = `http://127.0.0.1:${appPort}`;
      await waitForHttp(`${appOrigin}/`, { child: app });
      const file = await startStaticNginx({
        bin,
        runDir: path.join(run.dir, 'static'),
        port: await freePort(),
        htmlFile: prerenderedHome(paths),
      });
      stop.push(file.stop);

      log('/ through the cache and from the file');
      result.pages = await pages({ cache: stack.url, file: file.origin }, config);
      log('submissions through the cache and to the app alone');
      result.submissions = await submissions({ cache: stack.url, app: appOrigin }, config);
      log(`${config.edits} publishes`);
      result.publish = await publishes({
        origin: stack.url,
        contentFile: run.contentFile,
        secret,
        edits: config.edits,
      });
    } finally {
      await Promise.all(stop.map((fn) => fn()));
    }
  }
}

main().catch(async (error) => {
  console.error(error?.stack ?? error);
  await stopAllProcesses();
  process.exit(1);
});
