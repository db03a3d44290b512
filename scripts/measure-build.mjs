#!/usr/bin/env node
/**
 * npm run measure:build — what the site costs to build and to load, next to an empty Next page.
 *
 * For the site and for the empty app in bench/fixture/ (same Next, same node_modules, built the same way):
 *   1. a clean `next build`: wall time, and the peak resident memory of the whole process tree
 *      (Next's build workers included), sampled from /proc every 100 ms — the sum over the tree and
 *      the largest single process (what `/usr/bin/time -f %M` would report);
 *   2. `next start` on a free 127.0.0.1 port, then the gzip -9 bytes of JS, CSS and HTML a first load
 *      of each page downloads (scripts/lib/page-bytes.mjs).
 *
 * Prints a table, writes bench/build-report.json and bench/fixture-floor.json (the empty page's bytes,
 * committed: the browser budget test compares `/` against it without building the fixture).
 *
 *   --fixture-only   only the fixture: re-measures the floor (e.g. after a Next upgrade), leaves the report
 *
 * The site is built into its own dist dir (.next-measure, or MEASURE_DIST_DIR) so a running `next start`
 * or the test build in .next is never touched; `next build` then adds that dir's type globs to
 * tsconfig.json and rewrites next-env.d.ts, which this script puts back afterwards.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

import { pageBytes } from './lib/page-bytes.ts';
import { treeRss } from '../deploy/processes.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
const FIXTURE_DIR = path.join(ROOT, 'bench', 'fixture');
const REPORT_FILE = path.join(ROOT, 'bench', 'build-report.json');
const FLOOR_FILE = path.join(ROOT, 'bench', 'fixture-floor.json');
const TMP_DIR = path.join(ROOT, 'bench', '.tmp');
const SITE_DIST_DIR = process.env.MEASURE_DIST_DIR || '.next-measure';
const SITE_ROUTES = ['/', '/support', '/privacy'];
/** The budget: `/` may load at most this many gzip bytes of JS more than the empty page. */
const BUDGET_BYTES = 20 * 1024;

const log = (message) => console.log(`[measure] ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1024 * 1024;

/** Other `next build` processes on this machine (two cores: one build at a time). */
function otherBuilds() {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const i = argv.findIndex((arg) => /(^|\/)next$/.test(arg));
      if (i >= 0 && argv[i + 1] === 'build') pids.push(Number(name));
    } catch {
      // Gone.
    }
  }
  return pids;
}

async function waitForBuildSlot(maxWaitMs = 20 * 60_000) {
  const started = Date.now();
  let told = false;
  for (let others = otherBuilds(); others.length; others = otherBuilds()) {
    if (Date.now() - started > maxWaitMs) throw new Error(`another next build (pid ${others.join(', ')}) still runs after ${maxWaitMs / 60_000} min`);
    if (!told) log(`waiting for another next build to finish (pid ${others.join(', ')}) so the timings are not shared`);
    told = true;
    await sleep(2000);
  }
}

/**
 * `next build` with a custom distDir adds "<distDir>/types/**" globs to tsconfig.json and points
 * next-env.d.ts at that dir. Both are shared files: when that is all that changed, they are put back
 * byte for byte (next-env.d.ts removed if it did not exist), also when the build is interrupted;
 * any other change (someone editing meanwhile) is left alone with a warning.
 */
function guardBuildEdits(dir, distDir) {
  const tsconfig = path.join(dir, 'tsconfig.json');
  const nextEnv = path.join(dir, 'next-env.d.ts');
  const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : null);
  const before = { tsconfig: read(tsconfig), nextEnv: read(nextEnv) };
  const ours = new Set([`${distDir}/types/**/*.ts`, `${distDir}/dev/types/**/*.ts`]);
  const restore = () => {
    const tsAfter = read(tsconfig);
    if (before.tsconfig !== null && tsAfter !== null && tsAfter !== before.tsconfig) {
      let onlyOurs = false;
      try {
        const a = JSON.parse(tsAfter);
        const b = JSON.parse(before.tsconfig);
        a.include = (a.include ?? []).filter((entry) => !ours.has(entry));
        onlyOurs = isDeepStrictEqual(a, b);
      } catch {
        // Not plain JSON (comments): leave it.
      }
      if (onlyOurs) writeFileSync(tsconfig, before.tsconfig);
      else log(`warning: tsconfig.json changed during the build in more than the ${distDir} globs; left as it is`);
    }
    const envAfter = read(nextEnv);
    if (envAfter !== null && envAfter !== before.nextEnv && envAfter.includes(`./${distDir}/`)) {
      if (before.nextEnv === null) rmSync(nextEnv, { force: true });
      else writeFileSync(nextEnv, before.nextEnv);
    }
  };
  const onSignal = (signal) => {
    restore();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    restore();
  };
}

/** A clean `next build` of `dir` (distDir `distDir` relative to it), timed and memory-sampled. */
async function build({ label, dir, distDir, env }) {
  await waitForBuildSlot();
  await rm(path.join(dir, distDir), { recursive: true, force: true });
  await mkdir(TMP_DIR, { recursive: true });
  const logFile = path.join(TMP_DIR, `${label}-build.log`);
  log(`building ${label} (clean, into ${path.relative(ROOT, path.join(dir, distDir))}); output in ${path.relative(ROOT, logFile)}`);

  const release = distDir === '.next' ? () => {} : guardBuildEdits(dir, distDir);
  try {
    const started = performance.now();
    const child = spawn(process.execPath, [NEXT_BIN, 'build', dir], {
      cwd: ROOT,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let peakTree = 0;
    let peakProcess = 0;
    const sample = () => {
      const { total, largest } = treeRss(child.pid);
      peakTree = Math.max(peakTree, total);
      peakProcess = Math.max(peakProcess, largest);
    };
    const sampler = setInterval(sample, 100);
    sample();
    const code = await new Promise((resolve) => child.on('close', resolve));
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    await writeFile(logFile, output);
    if (code !== 0) {
      process.stderr.write(output);
      throw new Error(`next build of ${label} failed with exit code ${code}`);
    }
    log(`built ${label} in ${seconds.toFixed(1)} s, peak tree RSS ${(peakTree / MB).toFixed(0)} MB`);
    return {
      buildSeconds: Number(seconds.toFixed(1)),
      peakRssMB: Math.round(peakTree / MB),
      peakProcessRssMB: Math.round(peakProcess / MB),
    };
  } finally {
    release();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `next start` for `dir` on a free port, in its own process group; resolves once `/` answers. */
async function start({ label, dir, env }) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [NEXT_BIN, 'start', dir, '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const kill = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    kill('SIGTERM');
    const timer = setTimeout(() => kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start of ${label} exited with code ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(origin + '/', { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      if (response.status < 500) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start of ${label} did not answer within 60 s:\n${output}`);
    }
    await sleep(200);
  }
  log(`${label} serving on ${origin}`);
  return { origin, stop };
}

async function measureRoutes({ label, dir, env, routes }) {
  const server = await start({ label, dir, env });
  try {
    const result = {};
    for (const route of routes) {
      const bytes = await pageBytes(server.origin, route);
      result[route] = { jsGzip: bytes.js, cssGzip: bytes.css, htmlGzip: bytes.html, scripts: bytes.scripts.length };
    }
    return result;
  } finally {
    await server.stop();
  }
}

const nextVersion = () => JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'next', 'package.json'), 'utf8')).version;
const reactVersion = () => JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'react', 'package.json'), 'utf8')).version;

const kb = (bytes) => (bytes == null ? '-' : `${(bytes / 1024).toFixed(1)} KB`);

function printTable(report) {
  const rows = [['', 'route', 'build', 'peak tree RSS', 'largest process', 'JS gzip', 'CSS gzip', 'HTML gzip']];
  for (const name of ['site', 'fixture']) {
    const app = report[name];
    if (!app) continue;
    Object.entries(app.routes).forEach(([route, bytes], i) => {
      rows.push([
        i === 0 ? name : '',
        route,
        i === 0 ? `${app.buildSeconds.toFixed(1)} s` : '',
        i === 0 ? `${app.peakRssMB} MB` : '',
        i === 0 ? `${app.peakProcessRssMB} MB` : '',
        kb(bytes.jsGzip),
        kb(bytes.cssGzip),
        kb(bytes.htmlGzip),
      ]);
    });
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  console.log('');
  for (const [r, row] of rows.entries()) {
    console.log(row.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
    if (r === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  console.log('');
}

async function main() {
  const fixtureOnly = process.argv.includes('--fixture-only');
  if (!existsSync(NEXT_BIN)) throw new Error('node_modules/next is missing: run npm ci first');
  await mkdir(TMP_DIR, { recursive: true });

  const report = {};
  if (!fixtureOnly) {
    // Its own data dir, so measuring never writes to the store in .data/.
    const siteEnv = { NEXT_DIST_DIR: SITE_DIST_DIR, DATA_DIR: path.join(TMP_DIR, 'measure-data') };
    const measured = await build({ label: 'site', dir: ROOT, distDir: SITE_DIST_DIR, env: siteEnv });
    report.site = { ...measured, routes: await measureRoutes({ label: 'site', dir: ROOT, env: siteEnv, routes: SITE_ROUTES }) };
  }
  // The fixture's next.config.ts ignores NEXT_DIST_DIR; drop it so nothing else leaks in.
  const fixtureEnv = { NEXT_DIST_DIR: '' };
  const measured = await build({ label: 'fixture', dir: FIXTURE_DIR, distDir: '.next', env: fixtureEnv });
  report.fixture = { ...measured, routes: await measureRoutes({ label: 'fixture', dir: FIXTURE_DIR, env: fixtureEnv, routes: ['/'] }) };

  const floor = report.fixture.routes['/'];
  await writeFile(
    FLOOR_FILE,
    JSON.stringify(
      {
        comment:
          'gzip bytes a first load of the empty page of bench/fixture downloads; written by npm run measure:build, read by tests/e2e/budget.spec.ts. Re-measure after a Next or React upgrade.',
        next: nextVersion(),
        react: reactVersion(),
        route: '/',
        // No HTML bytes: they move by a byte or two with each build's id, which would churn this committed file.
        jsGzip: floor.jsGzip,
        cssGzip: floor.cssGzip,
        budgetBytes: BUDGET_BYTES,
      },
      null,
      2,
    ) + '\n',
  );
  log(`wrote ${path.relative(ROOT, FLOOR_FILE)}`);

  printTable(report);
  if (fixtureOnly) return;

  const siteJs = report.site.routes['/'].jsGzip;
  const limit = floor.jsGzip + BUDGET_BYTES;
  const floorPlus20KB = siteJs <= limit;
  console.log(
    `/ loads ${kb(siteJs)} of gzip JS; the empty page ${kb(floor.jsGzip)}; budget floor + 20 KB = ${kb(limit)}: ` +
      (floorPlus20KB ? `within, ${kb(limit - siteJs)} to spare` : `OVER by ${kb(siteJs - limit)}`),
  );
  const full = { next: nextVersion(), react: reactVersion(), ...report, budgetBytes: BUDGET_BYTES, floorPlus20KB };
  await writeFile(REPORT_FILE, JSON.stringify(full, null, 2) + '\n');
  log(`wrote ${path.relative(ROOT, REPORT_FILE)}`);
}

main().catch((error) => {
  console.error(`[measure] ${error.stack ?? error}`);
  process.exit(1);
});
