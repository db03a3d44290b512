/**
 * `next build` measured (wall time, peak memory of the whole process tree), for the measuring scripts:
 * the site into a dist dir of its own, and the empty app of bench/fixture/; and the build the
 * measurements serve, which is never made into the checkout's own build.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { APP_ROOT, NEXT_BIN } from '../../testkit/paths.ts';
import { sleep, startProcess, treeRss } from '../../testkit/processes.ts';
import { buildPaths, buildState, ensureBuild } from '../../testkit/standalone.ts';

export const FIXTURE_DIR = path.join(APP_ROOT, 'bench', 'fixture');
const MB = 2 ** 20;

/** Other `next build` processes on this machine (their argv has a `next` binary followed by `build`). */
function otherBuilds() {
  return readdirSync('/proc').filter((name) => {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) return false;
    const argv = (() => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      } catch {
        return [];
      }
    })();
    return argv[argv.findIndex((arg) => /(^|\/)next$/.test(arg)) + 1] === 'build';
  });
}

/** Waits while another `next build` runs: two at once would share the cores and both timings. */
async function waitForBuildSlot(log: (line: string) => void, maxWaitMs = 20 * 60_000) {
  const started = Date.now();
  for (let others = otherBuilds(); others.length; others = otherBuilds()) {
    if (Date.now() - started > maxWaitMs)
      throw new Error(`another next build (pid ${others.join(', ')}) still runs after ${maxWaitMs / 60_000} min`);
    if (Date.now() - started < 2000) log(`waiting for another next build to finish (pid ${others.join(', ')})`);
    await sleep(2000);
  }
}

/**
 * `next build` with a custom distDir adds "<distDir>/types/**" globs to tsconfig.json and points
 * next-env.d.ts at that dir. Both are shared files: when that is all that changed they are put back
 * byte for byte; any other change (someone editing meanwhile) is left alone with a warning.
 */
function guardBuildEdits(dir: string, distDir: string, log: (line: string) => void) {
  const tsconfig = path.join(dir, 'tsconfig.json');
  const nextEnv = path.join(dir, 'next-env.d.ts');
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : null);
  const before = { tsconfig: read(tsconfig), nextEnv: read(nextEnv) };
  const ours = new Set([`${distDir}/types/**/*.ts`, `${distDir}/dev/types/**/*.ts`]);
  return () => {
    const after = read(tsconfig);
    if (before.tsconfig && after && after !== before.tsconfig) {
      const json = JSON.parse(after) as { include?: string[] };
      json.include = json.include?.filter((entry) => !ours.has(entry));
      if (isDeepStrictEqual(json, JSON.parse(before.tsconfig))) writeFileSync(tsconfig, before.tsconfig);
      else log(`warning: tsconfig.json changed during the build in more than the ${distDir} globs; left as it is`);
    }
    const envAfter = read(nextEnv);
    if (envAfter !== null && envAfter !== before.nextEnv && envAfter.includes(`./${distDir}/`)) {
      if (before.nextEnv === null) rmSync(nextEnv, { force: true });
      else writeFileSync(nextEnv, before.nextEnv);
    }
  };
}

/** A clean `next build` of `dir` into `distDir`, timed, its process tree's memory sampled every 100 ms. */
export async function timedBuild({
  dir,
  distDir,
  env,
  log,
}: {
  dir: string;
  distDir: string;
  env: Record<string, string>;
  log: (line: string) => void;
}) {
  await waitForBuildSlot(log);
  rmSync(path.join(dir, distDir), { recursive: true, force: true });
  log(`building ${path.relative(APP_ROOT, dir) || 'the site'} into ${distDir} ...`);
  const restore = distDir === '.next' ? () => {} : guardBuildEdits(dir, distDir, log);
  try {
    const started = performance.now();
    const child = startProcess('next build', process.execPath, [NEXT_BIN, 'build'], {
      cwd: dir,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: distDir, ...env },
    });
    let peak = { total: 0, largest: 0 };
    const sampler = setInterval(() => {
      const now = treeRss(child.pid!);
      peak = { total: Math.max(peak.total, now.total), largest: Math.max(peak.largest, now.largest) };
    }, 100);
    const { code } = await child.exited;
    clearInterval(sampler);
    if (code !== 0) throw new Error(`next build of ${dir} failed (exit code ${code}):\n${child.output()}`);
    return {
      buildSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      peakRssMB: Math.round(peak.total / MB),
      peakProcessRssMB: Math.round(peak.largest / MB),
    };
  } finally {
    restore();
  }
}

/**
 * Where the bench builds the site when the checkout's build is missing or stale: never into that build,
 * which a running `npm run serve` or `npm start` may be serving (a build under a running server broke
 * its pages until it was restarted).
 */
export const BENCH_DIST_DIR = '.next-bench';

/**
 * The production build to measure, its static files compressed for nginx: the checkout's own
 * (NEXT_DIST_DIR's, default .next) when it is current, else one of the bench's own in BENCH_DIST_DIR,
 * built there when missing or stale. The measurements copy it before they serve it.
 */
export async function currentBuild(log: (line: string) => void) {
  const own = buildPaths(process.env.NEXT_DIST_DIR || undefined);
  const { state, reason } = buildState(own);
  if (state === 'current') return ensureBuild(own, 'never', process.env, log);
  log(`${reason}: measuring a build of the bench's own in ${BENCH_DIST_DIR}, which leaves that one as it is`);
  const restore = guardBuildEdits(APP_ROOT, BENCH_DIST_DIR, log);
  try {
    return await ensureBuild(buildPaths(BENCH_DIST_DIR), 'auto', { ...process.env, NEXT_DIST_DIR: BENCH_DIST_DIR }, log);
  } finally {
    restore();
  }
}

/** The fixture's build, made when missing or older than the seed dataset (its same-bytes page holds the seed's text). */
export async function fixtureBuild(log: (line: string) => void) {
  const built = path.join(FIXTURE_DIR, '.next', 'server', 'app', 'same-bytes.html');
  if (!existsSync(built) || statSync(built).mtimeMs < statSync(path.join(APP_ROOT, 'seed', 'production.ndjson')).mtimeMs)
    await timedBuild({ dir: FIXTURE_DIR, distDir: '.next', env: {}, log });
}
