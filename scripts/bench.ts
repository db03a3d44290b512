#!/usr/bin/env node
/**
 * npm run bench — the site against this machine's limits, in one run on the production build (built
 * first when missing or older than the sources), each target beside its result:
 *
 *   deployed shape (npm run serve:prod's stack: the standalone server behind nginx's cache, deploy/)
 *     /            requests/s and p99 through the cache, against the same nginx serving the same
 *                  prerendered HTML file from disk (scripts/lib/static-nginx.ts)
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
 * client (autocannon) and settings. Everything runs on 127.0.0.1, on a private copy of the standalone
 * folder (a publish rewrites its pages), with temp files under bench/.tmp. Writes bench/report.json.
 *
 * Environment (all optional): BENCH_ROUNDS=4, BENCH_SECONDS=12 (of `/` per side, split into the
 * rounds, after 3 s of warm-up), BENCH_SUBMIT_SECONDS=8, BENCH_CONNECTIONS=50, BENCH_EDITS=20,
 * BENCH_STUDIO_LOADS=10, BENCH_LH_RUNS=5, CHROMIUM_PATH. `--strict` exits 1 when a target is missed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { findNginx, INSTALL_HINT } from '../deploy/nginx.ts';
import { freePort, stopAllProcesses, stopOnSignals, waitForHttp } from '../deploy/processes.ts';
import { startStack } from '../deploy/stack.ts';
import { copyStandalone, prerenderedHome, startApp } from '../deploy/standalone.ts';
import { APP_ROOT } from '../lib/app-root.mjs';
import { PUBLIC_PATHS as PAGES, type PublicPath } from '../lib/public-pages.ts';
import { currentBuild, FIXTURE_DIR, fixtureBuild, startNext } from './lib/build.ts';
import { alternate, firstByteMs, pageLoad, submissionLoad, type Combined } from './lib/http-load.ts';
import { LIGHTHOUSE_TARGETS, lighthouseMedians, lighthouseRows } from './lib/lighthouse.ts';
import { publishes, seedCopy } from './lib/publish.ts';
import { envInt, median, round, table, verdict } from './lib/report.ts';
import { startStaticNginx } from './lib/static-nginx.ts';
import { readStore } from './lib/store.ts';

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
  rounds: envInt('BENCH_ROUNDS', 4),
  pageSeconds: envInt('BENCH_SECONDS', 12),
  warmupSeconds: 3,
  submitSeconds: envInt('BENCH_SUBMIT_SECONDS', 8),
  connections: envInt('BENCH_CONNECTIONS', 50),
  edits: envInt('BENCH_EDITS', 20),
  studioLoads: envInt('BENCH_STUDIO_LOADS', 10),
  lighthouseRuns: envInt('BENCH_LH_RUNS', 5),
};
/** High enough that no submission of the run is refused: the bench measures the store, not the limiter. */
const NO_RATE_LIMIT = { RATE_LIMIT_MAX: '1000000000', RATE_LIMIT_SITE_MAX: '1000000000' };
const SUBJECT_PREFIX = 'bench ';

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
    htmlFile: prerenderedHome(paths),
  });
  await fixtureBuild(log);
  const fixture = await startNext({ dir: FIXTURE_DIR });
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

/** GET of two pages in alternating rounds, after a warm-up of each. */
async function comparePages<Side extends string>(urls: Record<Side, string>) {
  const sides = Object.keys(urls) as Side[];
  for (const side of sides) await pageLoad(urls[side], CONFIG.connections, CONFIG.warmupSeconds);
  return alternate(CONFIG.rounds, sides, (side) => pageLoad(urls[side], CONFIG.connections, CONFIG.pageSeconds / CONFIG.rounds));
}

/** Support submissions through the cache and to the bare server, in alternating rounds, each round its own subjects. */
async function compareSubmissions(servers: Servers) {
  let round = 0;
  const origins = { cache: servers.stack, bare: servers.bare };
  return alternate(CONFIG.rounds, ['cache', 'bare'] as const, (side) =>
    submissionLoad(origins[side], `${SUBJECT_PREFIX}${side} ${++round} #`, CONFIG.connections, CONFIG.submitSeconds / CONFIG.rounds),
  );
}

/** Every measurement, with the servers up only for them: the stores are read after they stopped. */
async function measure(dir: string, nginxBin: string) {
  const { servers, studio, stop } = await startServers(dir, nginxBin);
  try {
    log('/ through the cache and from the file');
    const pages = await comparePages({ cache: `${servers.stack}/`, file: `${servers.file}/` });
    log('/ on the bare server and the plain page of the same bytes');
    const bare = await comparePages({ site: `${servers.bare}/`, sameBytes: `${servers.fixture}/same-bytes` });
    log('submissions through the cache and to the bare server');
    const submissions = await compareSubmissions(servers);
    log(`Lighthouse, ${CONFIG.lighthouseRuns} runs per page`);
    const urls = Object.fromEntries(PAGES.map((page) => [page, `${servers.bare}${page}`])) as Record<PublicPath, string>;
    const lighthouse = await lighthouseMedians(
      { ...urls, heading: `${servers.fixture}/heading`, sameBytes: `${servers.fixture}/same-bytes` },
      CONFIG.lighthouseRuns,
    );
    log(`${CONFIG.edits} publishes through the cache`);
    const publish = await publishes({
      origin: servers.stack,
      contentFile: servers.contentFile,
      secret: servers.secret,
      edits: CONFIG.edits,
      log,
    });
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
const load = (run: Combined) =>
  `${run.perSecond} req/s, p99 ${ms(run.p99Ms)}${run.errors + run.refused ? `, ${run.errors + run.refused} failed` : ''}`;
const ratio = (a: Combined, b: Combined) => round(a.perSecond / b.perSecond, 2) ?? 0;

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
    result,
    `lost ${TARGETS.lost}, open <= ${CONFIG.connections * CONFIG.rounds}`,
    verdict(lost === TARGETS.lost && open <= CONFIG.connections * CONFIG.rounds),
  ];
}

function deployedRows({ pages, publish, submissions, stored, studio }: Results) {
  return [
    ['/ through the cache', load(pages.cache), '', ''],
    ['/ as a file from disk (nginx)', load(pages.file), '', ''],
    [
      '  cache / file',
      `${ratio(pages.cache, pages.file)}×`,
      `>= ${TARGETS.cacheOverFile}×`,
      verdict(ratio(pages.cache, pages.file) >= TARGETS.cacheOverFile),
    ],
    [
      'publish → visible through the cache',
      `median ${ms(publish.medianMs)}, worst ${ms(publish.worstMs)} (${publish.edits} edits)`,
      `worst <= ${TARGETS.publishWorstMs} ms`,
      verdict(publish.worstMs !== null && publish.worstMs <= TARGETS.publishWorstMs),
    ],
    submissionRow('submissions through the cache', submissions.cache, stored.cache),
    submissionRow('submissions to the bare server', submissions.bare, stored.bare),
    [
      '  cache / bare',
      `${ratio(submissions.cache, submissions.bare)}×`,
      `>= ${TARGETS.submissionsCacheOverBare}×`,
      verdict(ratio(submissions.cache, submissions.bare) >= TARGETS.submissionsCacheOverBare),
    ],
    [
      '/studio first byte, first load after start',
      `${ms(studio.firstMs)} (status ${studio.status})`,
      `<= ${TARGETS.studioFirstMs} ms`,
      verdict(studio.status === 200 && studio.firstMs <= TARGETS.studioFirstMs),
    ],
    [`/studio first byte, later loads (median of ${CONFIG.studioLoads})`, ms(studio.laterMedianMs), '', ''],
  ];
}

function bareRows({ bare, lighthouse }: Results) {
  return [
    ['bare server: /', load(bare.site), '', ''],
    ['plain Next page of the same bytes', load(bare.sameBytes), '', ''],
    [
      '  / / same bytes',
      `${ratio(bare.site, bare.sameBytes)}×`,
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
  const missed = rows.filter((row) => row[3] === 'MISSED').map((row) => String(row[0]).trim());
  const machine = `${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}, node ${process.version}`;
  const report = { generatedAt: new Date().toISOString(), machine, config: CONFIG, targets: TARGETS, results, missed };
  await writeFile(path.join(APP_ROOT, 'bench', 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `bench  ${report.generatedAt}  ${machine}\nautocannon, ${CONFIG.connections} connections, ${CONFIG.rounds} alternating rounds\n\n`,
  );
  process.stdout.write(
    `${table([['measure', 'result', 'target', ''], ...rows])}\n\n${missed.length ? `targets missed: ${missed.join('; ')}` : 'all targets met'}\n`,
  );
  if (process.argv.includes('--strict') && missed.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  // A server that started before the failure (nginx runs detached, in its own group) goes too.
  void stopAllProcesses().finally(() => process.exit(1));
});
