#!/usr/bin/env node
/**
 * npm run bench — the site's performance against its targets, on the production build.
 *
 *   Lighthouse (mobile, the package's default config) for /, /support and /privacy, median of N runs,
 *     and for the fixture's one-heading page (what Next alone scores on this machine at that time);
 *   gzip bytes of JS, CSS and HTML each public page loads;
 *   GET / requests/s and p50/p99 latency on `next start`, next to the empty page of bench/fixture
 *     (built and started the same way), to a fixture page of the site's text as plain paragraphs (about
 *     the site's HTML bytes, none of its components) and to Debian nginx serving the same prerendered
 *     HTML and assets (all up at once, measured in alternating rounds with the same client);
 *   accepted support submissions/s through the server action as the page's script calls it (a visitor
 *     with JavaScript), as a share of the page views/s of the same run, and beside it the same form
 *     posted by a browser without JavaScript (answered with the whole page); the rows the store has;
 *   `next build` wall time and peak memory of the process tree.
 *
 * Writes bench/report.json and prints a table with the targets beside the results.
 * The site is built into its own dist dir (default .next-bench) unless that holds a build of HEAD's commit;
 * `--rebuild` (or BENCH_REBUILD=1) builds again. All load goes to 127.0.0.1 and stops by itself.
 *
 * Environment (all optional):
 *   BENCH_DURATION=15        seconds of measured load per server (after BENCH_WARMUP=5 seconds of warm-up), split
 *                            into BENCH_ROUNDS=6 rounds that alternate between the site, the fixture and nginx
 *                            (short rounds: the machine's speed drifts by a third within one run)
 *   BENCH_CONNECTIONS=50     concurrent keep-alive connections of the load client
 *   BENCH_CLIENT=wrk|node    load client; default wrk when installed (apt-get install wrk), else the node client
 *   BENCH_LH_RUNS=5          Lighthouse runs per page (the median is reported; one run swings by 5-9 points)
 *   BENCH_DIST_DIR=.next-bench   dist dir of the site's bench build
 *   BENCH_NGINX_WORKERS=1    nginx worker processes (one, like the single-threaded next start)
 *   CHROMIUM_PATH=/usr/bin/chromium
 * `--strict` exits 1 when a target is missed (by default only errors fail the run).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';

import { pageBytes } from './lib/page-bytes.ts';
import { freePort, treeRss, waitForHttp } from '../deploy/processes.ts';

export { freePort, treeRss };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
export const SEED_FILE = path.join(ROOT, 'content', 'production.ndjson');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const TMP_ROOT = path.join(ROOT, 'bench', '.tmp');
export const DEFAULT_DIST_DIR = process.env.BENCH_DIST_DIR || '.next-bench';
const FIXTURE_DIR = path.join(ROOT, 'bench', 'fixture');
const PUBLIC_PATHS = ['/', '/support', '/privacy'];
/** The fixture's page with one heading: what Lighthouse scores for Next itself (the empty page paints nothing). */
const FLOOR_LIGHTHOUSE_PATH = '/heading';
/** The fixture's page with every text of the seed as plain paragraphs: the site's bytes without its components. */
const SAME_BYTES_PATH = '/same-bytes';
const BUILD_INFO = 'bench-build.json';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message) => process.stderr.write(`[bench] ${message}\n`);

function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Processes: free ports, process-tree memory, builds, servers
// ---------------------------------------------------------------------------------------------

/** Other `next build` processes on this machine (their argv has a `next` binary followed by `build`). */
function otherBuilds() {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const index = argv.findIndex((arg) => /(^|\/)next$/.test(arg));
      if (index >= 0 && argv[index + 1] === 'build') pids.push(Number(name));
    } catch {
      // Gone.
    }
  }
  return pids;
}

/** Waits while another `next build` runs: two at once would share the 2 cores and both timings. */
export async function waitForBuildSlot(maxWaitMs = 20 * 60_000) {
  const started = Date.now();
  let told = false;
  for (let others = otherBuilds(); others.length; others = otherBuilds()) {
    if (Date.now() - started > maxWaitMs) throw new Error(`another next build (pid ${others.join(', ')}) still runs after ${maxWaitMs / 60_000} min`);
    if (!told) log(`waiting for another next build to finish (pid ${others.join(', ')})`);
    told = true;
    await sleep(2000);
  }
}

/**
 * `next build` with a custom distDir adds "<distDir>/types/**" globs to tsconfig.json and points
 * next-env.d.ts at that dir. Both are shared files: when that is all that changed, they are put back
 * byte for byte (next-env.d.ts removed if it did not exist), also when the run is interrupted; any
 * other change (someone editing meanwhile) is left alone with a warning.
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
  pendingRestores.add(restore);
  return () => {
    pendingRestores.delete(restore);
    restore();
  };
}

/** Build edits still to undo; an interrupted run undoes them after stopping the build. */
const pendingRestores = new Set();

/**
 * On Ctrl-C or SIGTERM: stop every process group this script started (builds included), undo the
 * build's edits of shared files, then exit. Call once from a script's main.
 */
export function stopOnSignals(extra = async () => {}) {
  const onSignal = (signal) => {
    stopEverything()
      .then(extra)
      .catch(() => {})
      .finally(() => {
        for (const restore of pendingRestores) restore();
        process.exit(signal === 'SIGINT' ? 130 : 143);
      });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

/**
 * Runs `next build` in `cwd`, timing wall time and sampling the peak resident memory of the
 * whole process tree (Next's build workers included) every 100 ms.
 */
export async function buildNext({ cwd = ROOT, distDir, env = {}, label = 'site' } = {}) {
  await waitForBuildSlot();
  const run = async () => {
    log(`building ${label}${distDir ? ` into ${distDir}` : ''} ...`);
    const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env };
    if (distDir) childEnv.NEXT_DIST_DIR = distDir;
    else delete childEnv.NEXT_DIST_DIR;
    const started = performance.now();
    const child = spawnGroup(process.execPath, [NEXT_BIN, 'build'], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let peak = 0;
    let peakProcess = 0;
    const sampler = setInterval(() => {
      const { total, largest } = treeRss(child.pid);
      peak = Math.max(peak, total);
      peakProcess = Math.max(peakProcess, largest);
    }, 100);
    const code = await new Promise((resolve) => child.on('close', resolve));
    clearInterval(sampler);
    const wallMs = performance.now() - started;
    if (code !== 0) {
      process.stderr.write(output);
      throw new Error(`next build of ${label} failed with exit code ${code}`);
    }
    log(`built ${label} in ${(wallMs / 1000).toFixed(1)} s, peak ${(peak / 2 ** 20).toFixed(0)} MiB`);
    return { wallMs: Math.round(wallMs), peakRssBytes: peak, peakProcessRssBytes: peakProcess };
  };
  const release = distDir ? guardBuildEdits(cwd, distDir) : () => {};
  try {
    return await run();
  } finally {
    release();
  }
}

/** The site's production build in `distDir`, built (and measured) when missing or when asked to. */
export async function ensureSiteBuild({ distDir = DEFAULT_DIST_DIR, rebuild = false } = {}) {
  const dir = path.join(ROOT, distDir);
  const infoFile = path.join(dir, BUILD_INFO);
  const info = existsSync(infoFile) ? JSON.parse(await readFile(infoFile, 'utf8')) : null;
  // Reused only when built at this commit: a report names HEAD's commit and must measure it.
  if (!rebuild && existsSync(path.join(dir, 'BUILD_ID')) && info?.commit && info.commit === gitCommit()) {
    log(`reusing the build in ${distDir} (built ${info.builtAt} at commit ${info.commit}); --rebuild builds again`);
    return { reused: true, distDir, ...info };
  }
  const measured = await buildNext({ cwd: ROOT, distDir, label: 'the site' });
  const built = { ...measured, builtAt: new Date().toISOString(), commit: gitCommit() };
  await writeFile(infoFile, JSON.stringify(built, null, 2));
  return { reused: false, distDir, ...built };
}

/** The empty Next app of bench/fixture, built into its own .next when missing. */
export async function ensureFixtureBuild({ rebuild = false } = {}) {
  const dir = path.join(FIXTURE_DIR, '.next');
  const infoFile = path.join(dir, BUILD_INFO);
  // A build from before one of the pages the bench reads existed: build again.
  const hasPages = [FLOOR_LIGHTHOUSE_PATH, SAME_BYTES_PATH].every((page) => existsSync(path.join(dir, 'server', 'app', `${page.slice(1)}.html`)));
  if (!rebuild && existsSync(path.join(dir, 'BUILD_ID')) && hasPages) {
    const info = existsSync(infoFile) ? JSON.parse(await readFile(infoFile, 'utf8')) : null;
    return { reused: true, ...(info ?? { wallMs: null, peakRssBytes: null }) };
  }
  const measured = await buildNext({ cwd: FIXTURE_DIR, label: 'the empty fixture app' });
  const info = { ...measured, builtAt: new Date().toISOString() };
  await writeFile(infoFile, JSON.stringify(info, null, 2));
  return { reused: false, ...info };
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** Every process group this script started and has not stopped yet (servers, chromium, nginx). */
const running = new Map();

/** Starts `command` detached, in its own process group, remembered until it exits. */
function spawnGroup(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true });
  running.set(child.pid, child);
  child.once('exit', () => running.delete(child.pid));
  return child;
}

/** Stops what is still running (on errors and on Ctrl-C): nothing this script started outlives it. */
export async function stopEverything() {
  await Promise.all([...running.values()].map((child) => stopGroup(child, `pid ${child.pid}`)));
}

/** Stops a process started detached (its own group), politely first. */
async function stopGroup(child, name) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => {
    log(`${name} ignored SIGTERM; killing it`);
    signal('SIGKILL');
  }, 5000);
  await exited;
  clearTimeout(timer);
}

/** waitForHttp for a child of spawnGroup: `ours()` must hold too (see waitForHttp's `ready`). */
const waitUntilUp = (url, child, name, output, timeoutMs = 60_000, ours = () => true) =>
  waitForHttp(url, { child: { name, running: () => child.exitCode === null, output }, timeoutMs, ready: ours });

/** `next start` on 127.0.0.1:port, in its own process group; resolves once it answers. */
export async function startNext({ cwd = ROOT, distDir, port, env = {}, name = 'next start', readyPath = '/' }) {
  const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env };
  if (distDir) childEnv.NEXT_DIST_DIR = distDir;
  else delete childEnv.NEXT_DIST_DIR;
  const child = spawnGroup(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const origin = `http://127.0.0.1:${port}`;
  try {
    // next start prints "Ready" once it listens; it exits (EADDRINUSE) when the port was taken meanwhile.
    await waitUntilUp(origin + readyPath, child, name, () => output, 60_000, () => /\bReady in\b/.test(output));
    await sleep(100);
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}:\n${output}`);
  } catch (error) {
    await stopGroup(child, name);
    throw error;
  }
  return { origin, pid: child.pid, output: () => output, stop: () => stopGroup(child, name) };
}

/** A temp directory under bench/.tmp, with a copy of the seed dataset the server may read. */
export async function makeRunDir(prefix) {
  const dir = path.join(TMP_ROOT, `${prefix}-${process.pid}-${Date.now()}`);
  await mkdir(path.join(dir, 'content'), { recursive: true });
  const contentFile = path.join(dir, 'content', 'production.ndjson');
  await copyFile(SEED_FILE, contentFile);
  return { dir, contentFile, dataDir: path.join(dir, 'data') };
}

// ---------------------------------------------------------------------------------------------
// Lighthouse
// ---------------------------------------------------------------------------------------------

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-dev-shm-usage',
];

/** Debian's chromium with a DevTools port for Lighthouse; never a downloaded browser. */
export async function launchChromium() {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'bench-chromium-'));
  const child = spawnGroup(CHROMIUM, [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // However it ends (stopped, crashed, or stopped by stopEverything on Ctrl-C), its profile goes too.
  child.once('exit', () => rmSync(profile, { recursive: true, force: true }));
  let stderr = '';
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chromium did not open a DevTools port:\n${stderr}`)), 30_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`chromium exited with code ${code}:\n${stderr}`));
    });
  });
  child.stderr.resume();
  return {
    port,
    stop: () => stopGroup(child, 'chromium'),
  };
}

const median = (values) => {
  const sorted = values.filter((value) => typeof value === 'number' && Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const score = (category) => (category?.score == null ? null : Math.round(category.score * 100));

async function lighthouseRun(url, port) {
  const { default: lighthouse } = await import('lighthouse');
  // No config argument: Lighthouse's default config, the mobile preset with simulated throttling.
  const result = await lighthouse(url, { port, hostname: '127.0.0.1', output: 'json', logLevel: 'error' });
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const failing = (id) =>
    Object.values(lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && lhr.audits[ref.id]?.score < 1)
      .map((ref) => ref.id);
  return {
    performance: score(lhr.categories.performance),
    accessibility: score(lhr.categories.accessibility),
    bestPractices: score(lhr.categories['best-practices']),
    seo: score(lhr.categories.seo),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? null,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? null,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? null,
    fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? null,
    // Lighthouse's own CPU benchmark of this machine at the time (higher is faster).
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    failing: { accessibility: failing('accessibility'), bestPractices: failing('best-practices'), seo: failing('seo') },
  };
}

export async function runLighthouse(origin, paths, runs) {
  const chromium = await launchChromium();
  const results = {};
  try {
    for (const pagePath of paths) {
      const all = [];
      const errors = [];
      for (let run = 1; run <= runs; run++) {
        log(`Lighthouse ${pagePath} run ${run}/${runs}`);
        try {
          all.push(await lighthouseRun(origin + pagePath, chromium.port));
        } catch (error) {
          log(`Lighthouse ${pagePath} run ${run} failed: ${error.message}`);
          errors.push(error.message);
        }
      }
      if (all.length === 0) {
        results[pagePath] = { runs: 0, errors };
        continue;
      }
      const pick = (key) => median(all.map((run) => run[key]));
      results[pagePath] = {
        runs: all.length,
        performance: pick('performance'),
        accessibility: pick('accessibility'),
        bestPractices: pick('bestPractices'),
        seo: pick('seo'),
        lcpMs: pick('lcpMs'),
        tbtMs: pick('tbtMs'),
        cls: pick('cls'),
        fcpMs: pick('fcpMs'),
        benchmarkIndex: pick('benchmarkIndex'),
        failingAudits: all.at(-1).failing,
        ...(errors.length ? { errors } : {}),
        all: all.map(({ failing, ...rest }) => rest),
      };
    }
  } finally {
    await chromium.stop();
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// Load clients
// ---------------------------------------------------------------------------------------------

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);

function send(agent, origin, { method = 'GET', path: requestPath = '/', headers = {}, body }, readBody) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: hostname, port, method, path: requestPath, headers }, (response) => {
      if (!readBody) {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode, body: '' }));
        response.on('error', reject);
        return;
      }
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        try {
          const body = response.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: response.statusCode, body: body.toString('utf8') });
        } catch (error) {
          reject(error);
        }
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * A closed-loop keep-alive HTTP/1.1 client: `connections` loops, each sending its next request
 * when the previous answered, until `durationMs` is over (requests in flight then finish).
 * `judge(status, body)` says whether a response counts as a success.
 */
export async function nodeLoad({
  origin,
  connections,
  durationMs,
  makeRequest,
  judge = (status) => status >= 200 && status < 400,
  readBody = false,
  maxRequests = Infinity,
}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const latencies = [];
  const outcomes = { ok: 0, failed: 0, errors: 0 };
  const examples = [];
  let sequence = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  async function loop() {
    while (performance.now() < deadline && sequence < maxRequests) {
      const request = makeRequest(sequence++);
      const t0 = performance.now();
      try {
        const response = await send(agent, origin, request, readBody);
        latencies.push(performance.now() - t0);
        const verdict = judge(response.status, response.body, request);
        if (verdict === true) outcomes.ok++;
        else {
          outcomes.failed++;
          if (examples.length < 3) examples.push(`${response.status} ${typeof verdict === 'string' ? verdict : ''}`.trim());
        }
      } catch (error) {
        outcomes.errors++;
        if (examples.length < 3) examples.push(String(error?.code ?? error?.message ?? error));
        await sleep(10);
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    client: 'node',
    seconds: Number(seconds.toFixed(2)),
    requests: latencies.length + outcomes.errors,
    ...outcomes,
    rps: Number((outcomes.ok / seconds).toFixed(1)),
    p50Ms: round2(percentile(latencies, 50)),
    p99Ms: round2(percentile(latencies, 99)),
    examples,
  };
}

const round2 = (value) => (value == null ? null : Math.round(value * 100) / 100);

function wrkDurationMs(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]);
  return { us: value / 1000, ms: value, s: value * 1000, m: value * 60_000 }[match[2]];
}

/** wrk (Debian package) with the same connections and duration; one thread leaves a core for the server. */
async function wrkLoad({ origin, connections, durationMs, path: requestPath = '/', headers = {}, script }) {
  const args = ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(durationMs / 1000))}s`, '--latency', '--timeout', '10s'];
  for (const [key, value] of Object.entries(headers)) args.push('-H', `${key}: ${value}`);
  if (script) args.push('-s', script);
  args.push(origin + requestPath);
  const output = await new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk failed (${code}):\n${text}`))));
  });
  const requestsLine = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(output);
  if (!requestsLine) throw new Error(`cannot read wrk's output:\n${output}`);
  const requests = Number(requestsLine[1]);
  const seconds = wrkDurationMs(`${requestsLine[2]}${requestsLine[3]}`) / 1000;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = socket ? socket.slice(1).reduce((sum, value) => sum + Number(value), 0) : 0;
  const latency = (p) => {
    const match = new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output);
    return match ? round2(wrkDurationMs(match[1])) : null;
  };
  return {
    client: 'wrk',
    seconds: Number(seconds.toFixed(2)),
    requests,
    ok: requests - non2xx,
    failed: non2xx,
    errors,
    rps: Number(((requests - non2xx) / seconds).toFixed(1)),
    p50Ms: latency(50),
    p99Ms: latency(99),
    output,
  };
}

export function hasWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version; ENOENT means it is not installed.
    return error?.code !== 'ENOENT';
  }
}

/** One result from the rounds of a server: requests/s over all of them, the median round's p50 and p99. */
function combineSegments(runs) {
  const sum = (key) => runs.reduce((total, run) => total + (run[key] ?? 0), 0);
  const seconds = sum('seconds');
  const mid = (key) => median(runs.map((run) => run[key]));
  return {
    client: runs[0]?.client,
    rounds: runs.length,
    seconds: Number(seconds.toFixed(2)),
    requests: sum('requests'),
    ok: sum('ok'),
    failed: sum('failed'),
    errors: sum('errors'),
    rps: Number((sum('ok') / seconds).toFixed(1)),
    p50Ms: mid('p50Ms'),
    p99Ms: mid('p99Ms'),
    perRound: runs.map(({ rps, p50Ms, p99Ms, loadAverage }) => ({ rps, p50Ms, p99Ms, loadAverage: Number(loadAverage.toFixed(2)) })),
  };
}

/** GET `path` load with the chosen client, after a warm-up run that is not counted. */
export async function getLoad({ origin, path: requestPath = '/', client, connections, durationMs, warmupMs, compressed = true }) {
  // What a browser sends: compressed HTML is what a visitor gets. Uncompressed only to show what
  // Next's per-request gzip costs.
  const headers = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': compressed ? 'gzip' : 'identity' };
  const run = (ms) =>
    client === 'wrk'
      ? wrkLoad({ origin, connections, durationMs: ms, path: requestPath, headers })
      : nodeLoad({ origin, connections, durationMs: ms, makeRequest: () => ({ path: requestPath, headers }) });
  if (warmupMs > 0) await run(warmupMs);
  const { output, ...result } = await run(durationMs);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Support submissions: the server action as the page's script calls it, and the form as a browser
// without JavaScript posts it
// ---------------------------------------------------------------------------------------------

const decodeEntities = (text) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function attribute(tag, name) {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decodeEntities(match[1]) : null;
}

/** The first support form of /support: its action URL and every hidden input (the $ACTION_ fields among them). */
export async function supportForm(origin) {
  const html = await (await fetch(`${origin}/support`)).text();
  const form = /<form\b[^>]*>[\s\S]*?<\/form>/.exec(html)?.[0];
  if (!form) throw new Error('no <form> on /support');
  const hidden = [];
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    if (attribute(tag, 'type') !== 'hidden') continue;
    const name = attribute(tag, 'name');
    if (name) hidden.push([name, attribute(tag, 'value') ?? '']);
  }
  if (!hidden.some(([name]) => name.startsWith('$ACTION_'))) throw new Error('the /support form has no $ACTION_ fields: is it still a server action form?');
  const action = attribute(/<form\b[^>]*>/.exec(form)[0], 'action') ?? '/support';
  return { action: new URL(action, `${origin}/support`).pathname, hidden };
}

export const SUCCESS_TEXT = 'Thanks! Your request has been sent.';

/** Stands for the request's number in a template body. */
const SEQUENCE_MARK = '@@SEQ@@';

/**
 * What the page's script sends when a visitor with JavaScript presses Send: a POST with the action's
 * id in `Next-Action` and the arguments `[previousState, formData]` encoded by React's own
 * `encodeReply`, as multipart form data. Answered with the action's result (RSC), not a page.
 * Returns the body split at SEQUENCE_MARK, so each request gets its own numbered subject.
 */
export async function actionRequestTemplate(origin, runId) {
  const form = await supportForm(origin);
  const bound = form.hidden.find(([name]) => /^\$ACTION_\d+:0$/.test(name));
  const actionId = bound ? JSON.parse(bound[1]).id : null;
  if (typeof actionId !== 'string') throw new Error('cannot find the support action id in the /support form');
  const previousState = JSON.parse(form.hidden.find(([name]) => /^\$ACTION_\d+:1$/.test(name))?.[1] ?? '[]')[0] ?? { status: 'idle' };
  const { encodeReply } = createRequire(import.meta.url)('next/dist/compiled/react-server-dom-webpack/client.node.js');
  const fields = new FormData();
  for (const [name, value] of form.hidden) if (!name.startsWith('$ACTION_')) fields.append(name, value);
  fields.append('website', '');
  fields.append('email', `bench+${SEQUENCE_MARK}@example.com`);
  fields.append('subject', `bench ${runId} ${SEQUENCE_MARK}`);
  fields.append('message', `Benchmark submission ${SEQUENCE_MARK} of run ${runId}.`);
  const encoded = new Response(await encodeReply([previousState, fields]));
  const body = await encoded.text();
  if (!/^[\x20-\x7e\r\n]*$/.test(body)) throw new Error('the action body template is not plain ASCII');
  return {
    path: form.action,
    headers: {
      'content-type': encoded.headers.get('content-type'),
      accept: 'text/x-component',
      // A browser would also accept gzip, and Next would compress the ~80-byte answer; asked plainly so
      // that wrk's script can read whether it was accepted (no measurable difference in a node-client run).
      'accept-encoding': 'identity',
      'next-action': actionId,
      origin,
    },
    parts: body.split(SEQUENCE_MARK),
  };
}

/** The action's answer, decoded by the load clients: success is the state the form shows as Sent!. */
const ACTION_SUCCESS = '"status":"success"';

const judgeAnswer = (status, body) => {
  if (status !== 200) return `status ${status}`;
  if (body.includes(ACTION_SUCCESS) || body.includes(SUCCESS_TEXT)) return true;
  return /Too many requests|Failed to submit|Please [^"<]*/.exec(body)?.[0] ?? 'no success answer';
};

/** wrk with a Lua script that numbers each request's body and judges each answer as the node client does. */
async function wrkActionLoad({ origin, connections, durationMs, template, firstSequence }) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-wrk-'));
  const script = path.join(dir, 'submit.lua');
  // JSON string escapes of plain ASCII (\" \\ \r \n) are valid Lua string escapes.
  const lua = `
local parts = { ${template.parts.map((part) => JSON.stringify(part)).join(', ')} }
local headers = { ${Object.entries(template.headers)
    .filter(([name]) => name !== 'content-length')
    .map(([name, value]) => `[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join(', ')} }
local threads = {}
local sequence = ${firstSequence}
-- Globals, so that done() can read them from each thread.
accepted, refused, example = 0, 0, ""
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end
function init(args)
  sequence = sequence + id * 100000000
end
function request()
  sequence = sequence + 1
  return wrk.format("POST", ${JSON.stringify(template.path)}, headers, table.concat(parts, tostring(sequence)))
end
function response(status, _, body)
  if status == 200 and string.find(body, ${JSON.stringify(ACTION_SUCCESS)}, 1, true) then
    accepted = accepted + 1
  else
    refused = refused + 1
    if example == "" then example = status .. " " .. string.sub(body, 1, 200) end
  end
end
function done()
  for _, thread in ipairs(threads) do
    io.write("BENCH_RESULT accepted=" .. thread:get("accepted") .. " refused=" .. thread:get("refused") .. "\\n")
    local e = thread:get("example")
    if e ~= "" then io.write("BENCH_EXAMPLE " .. e .. "\\n") end
  end
end
`;
  await writeFile(script, lua);
  try {
    const run = await wrkLoad({ origin, connections, durationMs, path: template.path, script });
    const counts = [...run.output.matchAll(/BENCH_RESULT accepted=(\d+) refused=(\d+)/g)];
    if (!counts.length) throw new Error(`wrk printed no submission counts:\n${run.output}`);
    const ok = counts.reduce((sum, match) => sum + Number(match[1]), 0);
    const failed = counts.reduce((sum, match) => sum + Number(match[2]), 0);
    const examples = [...run.output.matchAll(/BENCH_EXAMPLE (.*)/g)].map((match) => match[1]).slice(0, 3);
    return { ...run, ok, failed, rps: Number((ok / run.seconds).toFixed(1)), examples, output: undefined };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Support requests sent as fast as `connections` visitors with JavaScript can (the action called by
 * the page's script, see actionRequestTemplate): one alone first, which opens and migrates the
 * embedded store, then a warm-up, then the measured run. Every accepted request must become a row.
 */
export async function actionSubmissionLoad({ origin, client, connections, durationMs, warmupMs = 0, runId }) {
  const template = await actionRequestTemplate(origin, `${runId}js`);
  let sequence = 0;
  const makeRequest = () => {
    const body = Buffer.from(template.parts.join(String(++sequence)));
    return { method: 'POST', path: template.path, headers: { ...template.headers, 'content-length': body.length }, body };
  };
  const nodeRun = (ms, options = {}) => nodeLoad({ origin, connections, durationMs: ms, makeRequest, judge: judgeAnswer, readBody: true, ...options });
  const first = await nodeRun(60_000, { connections: 1, maxRequests: 1 });
  if (first.ok !== 1) throw new Error(`the first support submission was not accepted: ${first.examples.join('; ')}`);
  // Each wrk run numbers its requests from its own offset, so no two requests share a subject.
  const run = (ms, offset) =>
    client === 'wrk' ? wrkActionLoad({ origin, connections, durationMs: ms, template, firstSequence: offset }) : nodeRun(ms);
  const warmup = warmupMs > 0 ? await run(warmupMs, 1_000_000_000) : null;
  const measured = await run(durationMs, 2_000_000_000);
  return { ...measured, warmupAccepted: first.ok + (warmup?.ok ?? 0), subjectPrefix: `bench ${runId}js ` };
}

function multipart(fields) {
  const boundary = `----bench${Math.random().toString(16).slice(2)}`;
  const parts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Posts the support form as fast as `connections` browsers without JavaScript can (answered with the
 * whole page); counts accepted answers. A warm-up run first (not timed, but its rows count).
 */
export async function formPostLoad({ origin, connections, durationMs, warmupMs = 0, runId }) {
  const form = await supportForm(origin);
  const makeRequest = (n) => {
    const { body, contentType } = multipart([
      ...form.hidden,
      ['email', `bench+${n}@example.com`],
      ['subject', `bench ${runId} ${n}`],
      ['message', `Benchmark submission ${n} of run ${runId}.`],
    ]);
    return {
      method: 'POST',
      path: form.action,
      // What a browser sends with a form post; the answer is the whole page, compressed like a page view.
      headers: { 'content-type': contentType, 'content-length': body.length, accept: 'text/html', 'accept-encoding': 'gzip', origin },
      body,
    };
  };
  let sequence = 0;
  const run = (ms, { loops = connections, maxRequests } = {}) =>
    nodeLoad({ origin, connections: loops, durationMs: ms, makeRequest: () => makeRequest(sequence++), judge: judgeAnswer, readBody: true, maxRequests });
  // The first submission opens and migrates the embedded store (seconds): one alone first, then the
  // warm-up, so neither is in the timing.
  const first = await run(60_000, { loops: 1, maxRequests: 1 });
  if (first.ok !== 1) throw new Error(`the first support submission was not accepted: ${first.examples.join('; ')}`);
  const warmup = warmupMs > 0 ? await run(warmupMs) : null;
  const measured = await run(durationMs);
  return { ...measured, warmupAccepted: first.ok + (warmup?.ok ?? 0), subjectPrefix: `bench ${runId} ` };
}

/** Rows in the embedded store (PGlite) whose subject starts with each prefix, read after the server has stopped. */
async function countStoredRows(dataDir, subjectPrefixes) {
  // The store keeps its PGlite database in a directory under DATA_DIR; find the one with a PG_VERSION.
  const candidates = [dataDir, ...readdirSync(dataDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => path.join(dataDir, entry.name))];
  const pgDir = candidates.find((dir) => existsSync(path.join(dir, 'PG_VERSION')));
  if (!pgDir) throw new Error(`no PGlite database under ${dataDir}`);
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(pgDir);
  try {
    const counts = [];
    for (const prefix of subjectPrefixes) {
      const { rows } = await db.query('select count(*)::int as n from support_requests where starts_with(subject, $1)', [prefix]);
      counts.push(rows[0].n);
    }
    return counts;
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// nginx
// ---------------------------------------------------------------------------------------------

export function hasNginx() {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return error?.code !== 'ENOENT';
  }
}

/** Debian's nginx serving the prerendered `/` and `_next/static` of the site's build; its own prefix and config. */
async function startNginx({ distDir, port, workers, runDir }) {
  const prefix = path.join(runDir, 'nginx');
  const www = path.join(prefix, 'www');
  await mkdir(path.join(www, '_next'), { recursive: true });
  // Copies, so the worker user (nobody) reads them whatever the permissions of the work tree.
  const html = await readFile(path.join(ROOT, distDir, 'server', 'app', 'index.html'));
  await writeFile(path.join(www, 'index.html'), html);
  // Compressed once, as a static host serves it (gzip_static); Next compresses each response itself.
  await writeFile(path.join(www, 'index.html.gz'), gzipSync(html, { level: 9 }));
  await cp(path.join(ROOT, distDir, 'static'), path.join(www, '_next', 'static'), { recursive: true });
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(prefix, temp), { recursive: true });
  const conf = `
worker_processes ${workers};
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  gzip_static on;
  gzip on;
  gzip_types text/css application/javascript text/javascript application/json;
  server {
    listen 127.0.0.1:${port};
    root ${www};
    location = / { try_files /index.html =404; }
    location /_next/static/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
  }
}
`;
  await writeFile(path.join(prefix, 'nginx.conf'), conf);
  const child = spawnGroup('nginx', ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(`${origin}/`, child, 'nginx', () => output + safeRead(path.join(prefix, 'error.log')), 15_000);
    await sleep(100);
    if (child.exitCode !== null) throw new Error(`nginx exited with code ${child.exitCode}:\n${safeRead(path.join(prefix, 'error.log'))}`);
  } catch (error) {
    await stopGroup(child, 'nginx');
    throw error;
  }
  return { origin, stop: () => stopGroup(child, 'nginx') };
}

const safeRead = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const TARGETS = {
  performance: 95,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  siteOverFixture: 0.9,
  submissionsOverPageViews: 0.25,
  rowsLost: 0,
};

const fmt = (value, digits = 0) => (value == null ? 'n/a' : Number(value).toFixed(digits));
const kb = (bytes) => (bytes == null ? 'n/a' : `${(bytes / 1024).toFixed(1)} KB`);

function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows.map((row) => row.map((cell, column) => String(cell).padEnd(widths[column])).join('  ').trimEnd()).join('\n');
}

const verdict = (ok) => (ok == null ? '' : ok ? 'ok' : 'MISSED');

export function printReport(report) {
  const lines = [];
  const { lighthouse, bytes, load, submissions, build } = report;
  lines.push(`bench  ${report.generatedAt}  commit ${report.commit ?? '?'}  ${report.machine.cpus} cores, node ${report.machine.node}`);
  lines.push(
    `load: ${report.config.client} client, ${report.config.connections} connections, ${report.config.durationS} s per server in ${report.config.rounds} alternating rounds (+${report.config.warmupS} s warm-up); Lighthouse: mobile default config, median of ${report.config.lighthouseRuns}`,
  );
  lines.push('');
  const lhRows = [['page', 'perf', 'a11y', 'best-pr.', 'SEO', 'LCP', 'TBT', 'CLS', 'JS gz', 'CSS gz', 'HTML gz', 'targets']];
  for (const pagePath of PUBLIC_PATHS) {
    const lh = lighthouse?.[pagePath] ?? {};
    const b = bytes?.[pagePath] ?? {};
    const ok =
      lh.performance >= TARGETS.performance && lh.accessibility >= TARGETS.accessibility && lh.bestPractices >= TARGETS.bestPractices && lh.seo >= TARGETS.seo;
    lhRows.push([
      pagePath,
      fmt(lh.performance),
      fmt(lh.accessibility),
      fmt(lh.bestPractices),
      fmt(lh.seo),
      lh.lcpMs == null ? 'n/a' : `${fmt(lh.lcpMs)} ms`,
      lh.tbtMs == null ? 'n/a' : `${fmt(lh.tbtMs)} ms`,
      fmt(lh.cls, 3),
      kb(b.js),
      kb(b.css),
      kb(b.html),
      lighthouse ? verdict(ok) : '',
    ]);
  }
  if (report.floor) {
    const b = report.floor.bytes ?? {};
    const lh = report.floor.lighthouse ?? {};
    lhRows.push([
      `empty Next page (floor)${lh.performance == null ? '' : `; LH: ${FLOOR_LIGHTHOUSE_PATH}`}`,
      fmt(lh.performance),
      '-',
      '-',
      '-',
      lh.lcpMs == null ? '-' : `${fmt(lh.lcpMs)} ms`,
      lh.tbtMs == null ? '-' : `${fmt(lh.tbtMs)} ms`,
      lh.cls == null ? '-' : fmt(lh.cls, 3),
      kb(b.js),
      kb(b.css),
      kb(b.html),
      '(info)',
    ]);
  }
  lhRows.push(['target', `>= ${TARGETS.performance}`, '100', '100', '100', '', '', '', '', '', '', '']);
  lines.push(table(lhRows));
  for (const pagePath of PUBLIC_PATHS) {
    const failing = lighthouse?.[pagePath]?.failingAudits;
    const list = failing ? Object.entries(failing).flatMap(([category, ids]) => ids.map((id) => `${category}:${id}`)) : [];
    if (list.length) lines.push(`  ${pagePath} audits below 100: ${list.join(', ')}`);
  }
  const index = median(PUBLIC_PATHS.map((pagePath) => lighthouse?.[pagePath]?.benchmarkIndex));
  if (index != null) lines.push(`  Lighthouse CPU benchmark index of this machine during the runs: ${fmt(index)} (mobile simulation takes 4x the main-thread time observed here, so a slow or busy host raises TBT)`);
  lines.push('');
  const loadRows = [['GET', 'req/s', 'p50', 'p99', 'errors']];
  const sameBytes = report.floor?.sameBytes;
  const sameBytesSize = sameBytes?.htmlRaw ? ` (${kb(sameBytes.htmlRaw)} HTML; site ${kb(bytes?.['/']?.htmlRaw)})` : '';
  for (const [name, label] of [
    ['site', 'site (next start)'],
    ['fixture', 'empty Next page'],
    ['sameBytes', `Next page of the site's text${sameBytesSize}`],
    ['nginx', 'nginx, same HTML'],
  ]) {
    const run = load?.[name];
    loadRows.push(
      run?.skipped
        ? [label, `skipped: ${run.skipped}`, '', '', '']
        : [label, fmt(run?.rps), run ? `${fmt(run.p50Ms, 2)} ms` : 'n/a', run ? `${fmt(run.p99Ms, 2)} ms` : 'n/a', run ? String(run.failed + run.errors) : 'n/a'],
    );
  }
  for (const [name, label] of [
    ['site', 'site, uncompressed'],
    ['fixture', 'empty Next page, uncompressed'],
    ['sameBytes', "Next page of the site's text, uncompressed"],
  ]) {
    const run = load?.uncompressed?.[name];
    if (run) loadRows.push([label, fmt(run.rps), `${fmt(run.p50Ms, 2)} ms`, `${fmt(run.p99Ms, 2)} ms`, String(run.failed + run.errors)]);
  }
  lines.push(table(loadRows));
  const r = load?.ratios ?? {};
  lines.push(
    table([
      ['ratio', 'result', 'target', ''],
      ['site / fixture', fmt(r.siteOverFixture, 3), `>= ${TARGETS.siteOverFixture}`, verdict(r.siteOverFixture == null ? null : r.siteOverFixture >= TARGETS.siteOverFixture)],
      ['site / fixture, uncompressed', fmt(r.siteOverFixtureUncompressed, 3), '(info: all but gzip)', ''],
      ["site / page of the site's text", fmt(r.siteOverSameBytes, 3), '(info: what the components cost)', ''],
      ["site / page of the site's text, uncompressed", fmt(r.siteOverSameBytesUncompressed, 3), '(info)', ''],
      ['fixture / nginx', fmt(r.fixtureOverNginx, 3), '(info)', ''],
      ['site / nginx', fmt(r.siteOverNginx, 3), '(info)', ''],
    ]),
  );
  lines.push('');
  if (submissions) {
    const noJs = submissions.withoutJavaScript;
    lines.push(
      table([
        ['support submissions', 'result', 'target', ''],
        [`with JavaScript (action call, ${submissions.client} client): accepted / s`, fmt(submissions.perSecond, 1), '', ''],
        ['  accepted per page view of /', fmt(submissions.ratioToPageViews, 3), `>= ${TARGETS.submissionsOverPageViews}`, verdict(submissions.ratioToPageViews >= TARGETS.submissionsOverPageViews)],
        ['  accepted / refused / errors', `${submissions.accepted} / ${submissions.refused} / ${submissions.errors}`, '', ''],
        ['  p50 / p99', `${fmt(submissions.p50Ms, 1)} ms / ${fmt(submissions.p99Ms, 1)} ms`, '', ''],
        ...(noJs
          ? [
              [`without JavaScript (form post, whole page answered, ${noJs.client} client): accepted / s`, fmt(noJs.perSecond, 1), '(info)', ''],
              ['  accepted per page view of /', fmt(noJs.ratioToPageViews, 3), '(info)', ''],
              ['  accepted / refused / errors', `${noJs.accepted} / ${noJs.refused} / ${noJs.errors}`, '', ''],
              ['  p50 / p99', `${fmt(noJs.p50Ms, 1)} ms / ${fmt(noJs.p99Ms, 1)} ms`, '', ''],
            ]
          : []),
        [
          'rows stored / accepted, both paths incl. warm-up / lost',
          `${submissions.rowsStored ?? 'n/a'} / ${submissions.accepted + submissions.acceptedInWarmup + (noJs ? noJs.accepted + noJs.acceptedInWarmup : 0)} / ${submissions.rowsLost ?? 'n/a'}`,
          '0 lost',
          verdict(submissions.rowsLost === 0),
        ],
      ]),
    );
    lines.push('');
  }
  const mib = (bytes) => (bytes == null ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
  const sec = (ms) => (ms == null ? 'n/a' : `${(ms / 1000).toFixed(1)} s`);
  lines.push(
    table([
      ['next build', 'wall time', 'peak RSS (tree)', 'largest process', ''],
      [
        'site',
        sec(build?.site?.wallMs),
        mib(build?.site?.peakRssBytes),
        mib(build?.site?.peakProcessRssBytes),
        build?.site?.reused ? `reused build of ${build.site.builtAt ?? 'unknown time'}` : 'built now',
      ],
      [
        'empty fixture',
        sec(build?.fixture?.wallMs),
        mib(build?.fixture?.peakRssBytes),
        mib(build?.fixture?.peakProcessRssBytes),
        build?.fixture?.reused ? 'reused build' : 'built now (build cache may be warm)',
      ],
    ]),
  );
  if (report.missed.length) lines.push('', `targets missed: ${report.missed.join('; ')}`);
  else lines.push('', 'all targets met');
  process.stdout.write(`${lines.join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main() {
  const args = new Set(process.argv.slice(2));
  const config = {
    durationS: envNumber('BENCH_DURATION', 15),
    warmupS: envNumber('BENCH_WARMUP', 5),
    rounds: Math.round(envNumber('BENCH_ROUNDS', 6)),
    connections: Math.round(envNumber('BENCH_CONNECTIONS', 50)),
    lighthouseRuns: Math.round(envNumber('BENCH_LH_RUNS', 5)),
    client: process.env.BENCH_CLIENT || (hasWrk() ? 'wrk' : 'node'),
    nginxWorkers: Math.round(envNumber('BENCH_NGINX_WORKERS', 1)),
    distDir: DEFAULT_DIST_DIR,
  };
  if (!['wrk', 'node'].includes(config.client)) throw new Error(`BENCH_CLIENT must be wrk or node, got ${config.client}`);
  const rebuild = args.has('--rebuild') || process.env.BENCH_REBUILD === '1';
  const durationMs = config.durationS * 1000;
  const warmupMs = config.warmupS * 1000;
  const runId = `${Date.now().toString(36)}${process.pid}`;

  let runDir = null;
  stopOnSignals(async () => runDir && rm(runDir, { recursive: true, force: true }));
  const build = { site: await ensureSiteBuild({ distDir: config.distDir, rebuild }), fixture: await ensureFixtureBuild({ rebuild }) };

  const run = await makeRunDir('bench');
  runDir = run.dir;

  const report = {
    generatedAt: new Date().toISOString(),
    commit: gitCommit(),
    machine: { cpus: os.cpus().length, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    config,
    targets: TARGETS,
    build,
  };

  try {
    // --- the site
    const site = await startNext({
      distDir: config.distDir,
      port: await freePort(),
      name: 'site',
      env: {
        CONTENT_FILE: run.contentFile,
        DATA_DIR: run.dataDir,
        // The benchmark posts from one address far faster than a person; the limit is not what is measured.
        RATE_LIMIT_MAX: '100000000',
        RATE_LIMIT_SITE_MAX: '100000000',
        SANITY_REVALIDATE_SECRET: `bench-${runId}`,
      },
    });
    log(`site on ${site.origin}`);
    for (const pagePath of PUBLIC_PATHS) await (await fetch(site.origin + pagePath)).arrayBuffer();

    // The fixture is up (idle) from here on, so its heading page is scored in the same minutes as the site.
    const fixture = await startNext({ cwd: FIXTURE_DIR, port: await freePort(), name: 'fixture' });
    report.lighthouse = await runLighthouse(site.origin, PUBLIC_PATHS, config.lighthouseRuns);
    const floorLighthouse = (await runLighthouse(fixture.origin, [FLOOR_LIGHTHOUSE_PATH], config.lighthouseRuns))[FLOOR_LIGHTHOUSE_PATH];

    report.bytes = {};
    for (const pagePath of PUBLIC_PATHS) {
      const measured = await pageBytes(site.origin, pagePath);
      report.bytes[pagePath] = { js: measured.js, css: measured.css, html: measured.html, htmlRaw: measured.raw.html, scripts: measured.scripts?.length ?? measured.scripts };
    }

    // --- the empty Next page and nginx with the same prerendered HTML, up beside the site
    // The empty page's bytes: the framework's own floor, for reading the site's numbers; Lighthouse of
    // the fixture's one-heading page, since a page that paints nothing ends in NO_FCP.
    report.floor = {
      bytes: await pageBytes(fixture.origin, '/').then(({ js, css, html, scripts }) => ({ js, css, html, scripts: scripts.length })),
      lighthouse: floorLighthouse,
      sameBytes: await pageBytes(fixture.origin, SAME_BYTES_PATH).then(({ html, raw }) => ({ html, htmlRaw: raw.html })),
    };
    const targets = {
      site: { origin: site.origin, path: '/' },
      fixture: { origin: fixture.origin, path: '/' },
      sameBytes: { origin: fixture.origin, path: SAME_BYTES_PATH },
    };
    if (hasNginx()) {
      const nginx = await startNginx({ distDir: config.distDir, port: await freePort(), workers: config.nginxWorkers, runDir: run.dir });
      targets.nginx = { origin: nginx.origin, path: '/' };
    }

    // --- GET / on all three, in alternating rounds so that whatever else the machine does hits all alike
    const segmentMs = durationMs / config.rounds;
    const rounds = async (servers, { compressed = true } = {}) => {
      const segments = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
      for (let round = 1; round <= config.rounds; round++) {
        for (const [name, { origin, path: requestPath }] of Object.entries(servers)) {
          log(`GET ${requestPath} on ${name}${compressed ? '' : ' uncompressed'}, round ${round}/${config.rounds} (${config.client}, ${config.connections} connections, ${(segmentMs / 1000).toFixed(1)} s)`);
          const loadAverage = os.loadavg()[0];
          const run = await getLoad({ origin, path: requestPath, client: config.client, connections: config.connections, durationMs: segmentMs, warmupMs: 0, compressed });
          segments[name].push({ ...run, loadAverage });
        }
      }
      return Object.fromEntries(Object.entries(segments).map(([name, runs]) => [name, combineSegments(runs)]));
    };
    for (const [name, { origin, path: requestPath }] of Object.entries(targets)) {
      log(`warming up ${name} (${config.warmupS} s)`);
      await getLoad({ origin, path: requestPath, client: config.client, connections: config.connections, durationMs: warmupMs, warmupMs: 0 });
    }
    report.load = await rounds(targets);
    if (!targets.nginx) report.load.nginx = { skipped: 'nginx is not installed (apt-get install -y nginx)' };
    // The same comparison without gzip: what serving the prerendered page costs beyond compressing its bytes.
    report.load.uncompressed = await rounds({ site: targets.site, fixture: targets.fixture, sameBytes: targets.sameBytes }, { compressed: false });

    const ratio = (a, b) => (a?.rps && b?.rps ? Number((a.rps / b.rps).toFixed(4)) : null);
    report.load.ratios = {
      siteOverFixture: ratio(report.load.site, report.load.fixture),
      siteOverFixtureUncompressed: ratio(report.load.uncompressed.site, report.load.uncompressed.fixture),
      // The site against a Next page of its bytes: what its components cost per request once prerendered.
      siteOverSameBytes: ratio(report.load.site, report.load.sameBytes),
      siteOverSameBytesUncompressed: ratio(report.load.uncompressed.site, report.load.uncompressed.sameBytes),
      fixtureOverNginx: ratio(report.load.fixture, report.load.nginx),
      siteOverNginx: ratio(report.load.site, report.load.nginx),
    };

    // --- support submissions on the site, against the page views/s just measured: the action as the
    // page's script calls it (what a visitor with JavaScript does; the target's measure), then the
    // form as a browser without JavaScript posts it (answered with the whole page; for information)
    log(`support submissions with JavaScript (${config.client} client, ${config.connections} connections, ${config.durationS} s after ${config.warmupS} s warm-up)`);
    const withJs = await actionSubmissionLoad({ origin: site.origin, client: config.client, connections: config.connections, durationMs, warmupMs, runId });
    log(`support submissions without JavaScript (node client, ${config.connections} connections, ${config.durationS} s after ${config.warmupS} s warm-up)`);
    const withoutJs = await formPostLoad({ origin: site.origin, connections: config.connections, durationMs, warmupMs, runId });
    await site.stop();

    let stored = null;
    try {
      stored = await countStoredRows(run.dataDir, [withJs.subjectPrefix, withoutJs.subjectPrefix]);
    } catch (error) {
      log(`could not count the stored rows: ${error.message}`);
    }
    const pageViews = report.load.site.rps;
    const summary = (measured) => ({
      accepted: measured.ok,
      acceptedInWarmup: measured.warmupAccepted,
      refused: measured.failed,
      errors: measured.errors,
      examples: measured.examples,
      client: measured.client,
      seconds: measured.seconds,
      perSecond: measured.rps,
      p50Ms: measured.p50Ms,
      p99Ms: measured.p99Ms,
      ratioToPageViews: pageViews ? Number((measured.rps / pageViews).toFixed(4)) : null,
    });
    const acceptedInAll = [withJs, withoutJs].map((measured) => measured.ok + measured.warmupAccepted);
    const rowsStored = stored && stored[0] + stored[1];
    report.submissions = {
      ...summary(withJs),
      pageViewsPerSecond: pageViews,
      withoutJavaScript: summary(withoutJs),
      rowsStored,
      // Warm-up and measured submissions alike, each path on its own: every accepted one must be a row.
      rowsLost: stored && acceptedInAll.reduce((lost, accepted, index) => lost + Math.max(0, accepted - stored[index]), 0),
      // Requests still in flight when a run stopped: stored, but their answer was not counted.
      rowsUnacknowledged: stored && acceptedInAll.reduce((extra, accepted, index) => extra + Math.max(0, stored[index] - accepted), 0),
    };
  } finally {
    await stopEverything();
    await rm(run.dir, { recursive: true, force: true });
  }

  const missed = [];
  for (const pagePath of PUBLIC_PATHS) {
    const lh = report.lighthouse[pagePath];
    for (const key of ['performance', 'accessibility', 'bestPractices', 'seo']) {
      if (!(lh[key] >= TARGETS[key])) missed.push(`Lighthouse ${key} ${pagePath} ${lh[key] ?? 'n/a'} < ${TARGETS[key]}`);
    }
  }
  const { ratios } = report.load;
  if (!(ratios.siteOverFixture >= TARGETS.siteOverFixture)) missed.push(`site/fixture ${ratios.siteOverFixture} < ${TARGETS.siteOverFixture}`);
  if (!(report.submissions.ratioToPageViews >= TARGETS.submissionsOverPageViews)) {
    missed.push(`submissions/page views ${report.submissions.ratioToPageViews} < ${TARGETS.submissionsOverPageViews}`);
  }
  if (report.submissions.rowsLost !== 0) missed.push(`rows lost: ${report.submissions.rowsLost ?? 'not counted'}`);
  report.missed = missed;

  await mkdir(path.join(ROOT, 'bench'), { recursive: true });
  await writeFile(path.join(ROOT, 'bench', 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  printReport(report);
  log('wrote bench/report.json');
  if (args.has('--strict') && missed.length) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error?.stack ?? error);
    process.exit(1);
  });
}
