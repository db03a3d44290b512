#!/usr/bin/env node
/**
 * npm run bench — the site against this machine's limits, in one run on the production build (built
 * first when missing or older than the sources), each target beside its result:
 *
 *   deployed shape (npm run serve:prod's stack: the standalone server behind nginx's cache, deploy/)
 *     /            requests/s and p99 through the cache, against the same nginx serving the same page
 *                  bytes from files compressed once (scripts/lib/static-nginx.ts), with the
 *                  Accept-Encoding Chrome sends (brotli), gzip and identity
 *     submissions  support requests/s through the cache, as the page's script sends them, against the
 *                  bare server; rows stored = accepted, none lost
 *     publish      dataset edits posted as signed webhooks: time to the first GET through nginx that
 *                  shows the edit
 *     /studio      time to first byte of its first load after the start, and of later loads
 *   bare server (the standalone server `next start` runs for this build)
 *     /            requests/s against a plain Next page of the same bytes (bench/fixture /same-bytes)
 *     Lighthouse   mobile, median of BENCH_LH_RUNS, of each page against the fixture's one-heading page,
 *                  and `/`'s LCP against its plain page of the same bytes (npm run measure:lighthouse
 *                  runs these rows alone)
 *
 * The two sides of each comparison are up at once and measured in alternating rounds with the same
 * client and settings: page views with wrk (scripts/lib/wrk.ts; C, two threads), best round of each
 * side; form posts with autocannon, which checks each answer, over all rounds. Each row names its
 * client and flags a client that was the limit. Everything runs on 127.0.0.1, on a private copy of the
 * standalone folder (a publish rewrites its pages), with temp files under bench/.tmp. Writes
 * bench/report.json.
 *
 * Environment (all optional): BENCH_ROUNDS=3, BENCH_SECONDS=5 (of each page view round per side,
 * after 2 s of warm-up), BENCH_WRK_CONNECTIONS=64, BENCH_SUBMIT_SECONDS=8 (per side, split into the
 * rounds), BENCH_CONNECTIONS=50 (autocannon's), BENCH_EDITS=20, BENCH_STUDIO_LOADS=10, BENCH_LH_RUNS=5,
 * CHROMIUM_PATH, WRK_BIN. `--strict` exits 1 when a target is missed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startAppServer } from '../testkit/app-server.ts';
import { findNginx, INSTALL_HINT } from '../testkit/nginx.ts';
import { freePort, stopAllProcesses, stopOnSignals, waitForHttp } from '../testkit/processes.ts';
import { startStack } from '../testkit/stack.ts';
import { copyStandalone, startApp } from '../testkit/standalone.ts';
import { APP_ROOT } from '../testkit/paths.ts';
import { seedCopy } from '../testkit/dataset.ts';
import { measurePublishes } from '../testkit/publish-timing.ts';
import { PUBLIC_PATHS as PAGES, type PublicPath } from '../lib/public-pages.ts';
import { currentBuild, FIXTURE_DIR, fixtureBuild } from './lib/build.ts';
import { alternate, combine, firstByteMs, submissionLoad, type Combined } from './lib/http-load.ts';
import { fixturePages, LIGHTHOUSE_TARGETS, lighthouseMedians, lighthouseRows } from './lib/lighthouse.ts';
import { envInt, median, round, table, verdict } from './lib/report.ts';
import { pageCopies, startStaticNginx } from './lib/static-nginx.ts';
import { readStore } from '../testkit/store.ts';
import { best, BROWSER_ACCEPT_ENCODING, clientBound, wrk, type WrkRun } from './lib/wrk.ts';

const TARGETS = {
  cacheOverFile: 0.8,
  publishWorstMs: 2000,
  submissionsCacheOverBare: 0.9,
  lost: 0,
  bareOverSameBytes: 0.95,
  lighthouseBelowHeading: LIGHTHOUSE_TARGETS.belowHeading,
  studioFirstMs: 100,
} as const;
const CONFIG = {
  rounds: envInt('BENCH_ROUNDS', 3),
  pageSeconds: envInt('BENCH_SECONDS', 5),
  warmupSeconds: 2,
  wrkThreads: 2,
  wrkConnections: envInt('BENCH_WRK_CONNECTIONS', 64),
  submitSeconds: envInt('BENCH_SUBMIT_SECONDS', 8),
  connections: envInt('BENCH_CONNECTIONS', 50),
  edits: envInt('BENCH_EDITS', 20),
  studioLoads: envInt('BENCH_STUDIO_LOADS', 10),
  lighthouseRuns: envInt('BENCH_LH_RUNS', 5),
};
/** High enough that no submission of the run is refused: the bench measures the store, not the limiter. */
const NO_RATE_LIMIT = { RATE_LIMIT_MAX: '1000000000', RATE_LIMIT_SITE_MAX: '1000000000' };
const SUBJECT_PREFIX = 'bench ';
/** The Accept-Encoding of each page-view comparison: as Chrome asks (brotli), then gzip and none. */
const ENCODINGS = { br: BROWSER_ACCEPT_ENCODING, gzip: 'gzip', identity: 'identity' } as const;
type Encoding = keyof typeof ENCODINGS;
const WRK = `wrk -t${CONFIG.wrkThreads} -c${CONFIG.wrkConnections}`;
const AUTOCANNON = `autocannon -c${CONFIG.connections}`;

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

type Servers = { stack: string; bare: string; file: string; fixture: string; contentFile: string; secret: string };

/** /studio's first load after the app started (nothing asked for it before), then `loads` more. */
async function studio(origin: string) {
  const first = await firstByteMs(`${origin}/studio`);
  const later: number[] = [];
  for (let load = 0; load < CONFIG.studioLoads; load++) later.push((await firstByteMs(`${origin}/studio`)).ms);
  return { status: first.status, firstMs: first.ms, laterMedianMs: median(later) };
}

/** Every server of the run, up at once; /studio is timed right after the stack's start. */
async function startServers(dir: string, nginxBin: string) {
  const secret = randomBytes(16).toString('hex');
  const contentFile = await seedCopy(dir);
  const { TRUSTED_PROXY_HOPS: _, ...inherited } = process.env;
  const env = { ...inherited, ...NO_RATE_LIMIT, CONTENT_FILE: contentFile, SANITY_REVALIDATE_SECRET: secret };
  const paths = await copyStandalone(await currentBuild(log), path.join(dir, 'standalone'));
  const stack = await startStack({
    port: await freePort(),
    runDir: path.join(dir, 'stack'),
    env: { ...env, DATA_DIR: path.join(dir, 'data-cache') },
    build: 'never',
    paths,
    log,
  });
  log(`stack at ${stack.url}; /studio first`);
  const studioTimes = await studio(stack.url);
  const barePort = await freePort();
  const bare = startApp({ paths, port: barePort, env: { ...env, DATA_DIR: path.join(dir, 'data-bare') } });
  await waitForHttp(`http://127.0.0.1:${barePort}/`, { child: bare });
  const file = await startStaticNginx({
    bin: nginxBin,
    runDir: path.join(dir, 'static'),
    port: await freePort(),
    page: await pageCopies(`${stack.url}/`),
  });
  await fixtureBuild(log);
  const fixture = await startAppServer({ NEXT_DIST_DIR: '.next' }, { dir: FIXTURE_DIR });
  const servers: Servers = {
    stack: stack.url,
    bare: `http://127.0.0.1:${barePort}`,
    file: file.origin,
    fixture: fixture.origin,
    contentFile,
    secret,
  };
  return { servers, studio: studioTimes, stop: () => Promise.all([stack.stop(), bare.stop(), file.stop(), fixture.stop()]) };
}

/** Page views of two pages with wrk in alternating rounds, after a warm-up of each: each side's best round. */
async function comparePages<Side extends string>(urls: Record<Side, string>, acceptEncoding: string) {
  const sides = Object.keys(urls) as Side[];
  const load = (side: Side, seconds: number) =>
    wrk(urls[side], {
      threads: CONFIG.wrkThreads,
      connections: CONFIG.wrkConnections,
      seconds,
      headers: { accept: 'text/html', 'accept-encoding': acceptEncoding },
    });
  for (const side of sides) await load(side, CONFIG.warmupSeconds);
  const runs = await alternate(CONFIG.rounds, sides, (side) => load(side, CONFIG.pageSeconds));
  return Object.fromEntries(sides.map((side) => [side, best(runs[side])])) as Record<Side, WrkRun>;
}

/** `/` through the cache and from the files, in each encoding. */
async function compareEncodings(servers: Servers) {
  const results = {} as Record<Encoding, { cache: WrkRun; file: WrkRun }>;
  for (const encoding of Object.keys(ENCODINGS) as Encoding[]) {
    log(`/ through the cache and from the files, Accept-Encoding: ${ENCODINGS[encoding]}`);
    results[encoding] = await comparePages({ cache: `${servers.stack}/`, file: `${servers.file}/` }, ENCODINGS[encoding]);
  }
  return results;
}

/**
 * Support submissions through the cache and to the bare server, in alternating rounds, each round its
 * own subjects; with autocannon's CPU time (it runs in this process) over the wall time.
 */
async function compareSubmissions(servers: Servers) {
  let round = 0;
  const origins = { cache: servers.stack, bare: servers.bare };
  const [cpuBefore, started] = [process.cpuUsage(), performance.now()];
  const runs = await alternate(CONFIG.rounds, ['cache', 'bare'] as const, (side) =>
    submissionLoad(origins[side], `${SUBJECT_PREFIX}${side} ${++round} #`, CONFIG.connections, CONFIG.submitSeconds / CONFIG.rounds),
  );
  const cpu = process.cpuUsage(cpuBefore);
  const clientShare = round2((cpu.user + cpu.system) / 1000 / (performance.now() - started));
  return { cache: combine(runs.cache), bare: combine(runs.bare), clientShare };
}

/** Every measurement, with the servers up only for them: the stores are read after they stopped. */
async function measure(dir: string, nginxBin: string) {
  const { servers, studio, stop } = await startServers(dir, nginxBin);
  try {
    const pages = await compareEncodings(servers);
    log('/ on the bare server and the plain page of the same bytes');
    const bare = await comparePages({ site: `${servers.bare}/`, sameBytes: `${servers.fixture}/same-bytes` }, BROWSER_ACCEPT_ENCODING);
    log('submissions through the cache and to the bare server');
    const submissions = await compareSubmissions(servers);
    log(`Lighthouse, ${CONFIG.lighthouseRuns} runs per page`);
    const urls = Object.fromEntries(PAGES.map((page) => [page, `${servers.bare}${page}`])) as Record<PublicPath, string>;
    const lighthouse = await lighthouseMedians({ ...urls, ...fixturePages(servers.fixture) }, CONFIG.lighthouseRuns);
    log(`${CONFIG.edits} publishes through the cache`);
    const publish = await measurePublishes(
      { contentFile: servers.contentFile, secret: servers.secret, publishTo: servers.stack, watch: [servers.stack] },
      { count: CONFIG.edits, log },
    );
    return { studio, pages, bare, submissions, lighthouse, publish };
  } finally {
    await stop();
  }
}

/** Rows each side's store holds from the run: every accepted submission must be one. */
async function storedRows(dir: string) {
  const count = async (side: string) =>
    (
      await readStore<{ n: number }>(
        path.join(dir, `data-${side}`),
        'select count(*)::int as n from support_requests where starts_with(subject, $1)',
        [SUBJECT_PREFIX],
      )
    )[0]?.n ?? 0;
  return { cache: await count('cache'), bare: await count('bare') };
}

type Results = Awaited<ReturnType<typeof measure>> & { stored: Awaited<ReturnType<typeof storedRows>> };

const ms = (value: number | null | undefined) => (value == null ? 'n/a' : `${round(value)} ms`);
const percent = (share: number) => `${Math.round(share * 100)} %`;
const round2 = (value: number) => round(value, 2) ?? 0;
/** A wrk row's result: its best round, and how busy wrk's threads were (CLIENT-BOUND: wrk was the limit). */
const view = (run: WrkRun) =>
  `${run.perSecond} req/s, p99 ${ms(run.p99Ms)}${run.failed ? `, ${run.failed} failed` : ''}; wrk CPU ${percent(run.clientShare)}${
    clientBound(run) ? ' CLIENT-BOUND' : ''
  }`;
const ratio = (a: { perSecond: number }, b: { perSecond: number }) => round2(a.perSecond / b.perSecond);
/** A ratio row: a side that wrk could not push to its limit makes the ratio say less. */
const ratioResult = (a: WrkRun, b: WrkRun) => `${ratio(a, b)}×${clientBound(a) || clientBound(b) ? ' (a side is client-bound)' : ''}`;

/**
 * Accepted requests without a row are lost. Rows without an accepted answer are expected up to one per
 * connection and round: the client stops counting at the end of its duration, while the requests it
 * still had open are stored by the app.
 */
function submissionRow(label: string, side: Combined, stored: number) {
  const lost = Math.max(0, side.ok - stored);
  const open = Math.max(0, stored - side.ok);
  const result = `${side.perSecond}/s; accepted ${side.ok}, stored ${stored}: lost ${lost}${open ? `, ${open} open at the end` : ''}`;
  return [
    label,
    AUTOCANNON,
    result,
    `lost ${TARGETS.lost}, open <= ${CONFIG.connections * CONFIG.rounds}`,
    verdict(lost === TARGETS.lost && open <= CONFIG.connections * CONFIG.rounds),
  ];
}

/** `/` through the cache against the files, per encoding; the target holds for each. */
function pageRows(pages: Results['pages']) {
  return (Object.keys(ENCODINGS) as Encoding[]).flatMap((encoding) => {
    const { cache, file } = pages[encoding];
    const asked = `Accept-Encoding: ${ENCODINGS[encoding]}`;
    return [
      [`/ through the cache, ${asked}`, WRK, view(cache), '', ''],
      [`/ as files compressed once (nginx), ${asked}`, WRK, view(file), '', ''],
      [
        '  cache / files',
        WRK,
        ratioResult(cache, file),
        `>= ${TARGETS.cacheOverFile}×`,
        verdict(ratio(cache, file) >= TARGETS.cacheOverFile),
      ],
    ];
  });
}

function deployedRows({ pages, publish, submissions, stored, studio }: Results) {
  return [
    ...pageRows(pages),
    [
      'publish → visible through the cache',
      'node fetch',
      `median ${ms(publish.median)}, worst ${ms(publish.worst)} (${CONFIG.edits} edits, ${publish.missed} not seen)`,
      `worst <= ${TARGETS.publishWorstMs} ms`,
      verdict(publish.missed === 0 && publish.worst <= TARGETS.publishWorstMs),
    ],
    submissionRow('submissions through the cache', submissions.cache, stored.cache),
    submissionRow('submissions to the bare server', submissions.bare, stored.bare),
    [
      '  cache / bare',
      AUTOCANNON,
      `${ratio(submissions.cache, submissions.bare)}×; autocannon CPU ${percent(submissions.clientShare)}${
        submissions.clientShare >= 0.9 ? ' CLIENT-BOUND' : ''
      }`,
      `>= ${TARGETS.submissionsCacheOverBare}×`,
      verdict(ratio(submissions.cache, submissions.bare) >= TARGETS.submissionsCacheOverBare),
    ],
    [
      '/studio first byte, first load after start',
      'node http',
      `${ms(studio.firstMs)} (status ${studio.status})`,
      `<= ${TARGETS.studioFirstMs} ms`,
      verdict(studio.status === 200 && studio.firstMs <= TARGETS.studioFirstMs),
    ],
    [`/studio first byte, later loads (median of ${CONFIG.studioLoads})`, 'node http', ms(studio.laterMedianMs), '', ''],
  ];
}

function bareRows({ bare, lighthouse }: Results) {
  const asked = `Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}`;
  return [
    [`bare server: /, ${asked}`, WRK, view(bare.site), '', ''],
    ['plain Next page of the same bytes', WRK, view(bare.sameBytes), '', ''],
    [
      '  / / same bytes',
      WRK,
      ratioResult(bare.site, bare.sameBytes),
      `>= ${TARGETS.bareOverSameBytes}×`,
      verdict(ratio(bare.site, bare.sameBytes) >= TARGETS.bareOverSameBytes),
    ],
    ...lighthouseRows(lighthouse),
  ];
}

async function main() {
  const nginxBin = findNginx(process.env);
  if (!nginxBin) throw new Error(`nginx was not found: ${INSTALL_HINT}`);
  const dir = path.join(APP_ROOT, 'bench', '.tmp', `bench-${process.pid}`);
  await mkdir(dir, { recursive: true });
  stopOnSignals(() => rm(dir, { recursive: true, force: true }));
  let results: Results;
  try {
    results = { ...(await measure(dir, nginxBin)), stored: await storedRows(dir) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const rows = [...deployedRows(results), ...bareRows(results)];
  const missed = rows.filter((row) => row[4] === 'MISSED').map((row) => String(row[0]).trim());
  const machine = `${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}, node ${process.version}`;
  const report = { generatedAt: new Date().toISOString(), machine, config: CONFIG, targets: TARGETS, results, missed };
  await writeFile(path.join(APP_ROOT, 'bench', 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `bench  ${report.generatedAt}  ${machine}\n${CONFIG.rounds} alternating rounds per comparison: page views the best round of ${CONFIG.pageSeconds} s (${WRK}), submissions all rounds (${AUTOCANNON})\n\n`,
  );
  process.stdout.write(
    `${table([['measure', 'client', 'result', 'target', ''], ...rows])}\n\n${missed.length ? `targets missed: ${missed.join('; ')}` : 'all targets met'}\n`,
  );
  if (process.argv.includes('--strict') && missed.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  // A server that started before the failure (nginx runs detached, in its own group) goes too.
  void stopAllProcesses().finally(() => process.exit(1));
});
