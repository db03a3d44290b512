#!/usr/bin/env node
/**
 * npm test — every test, in order, stopping at the first failure:
 *
 *   typegen   sanity.types.ts is what `npm run typegen` generates from schema.json (schema.json itself is
 *             checked by a unit test, schemas/schema-json.test.ts: a second, where the CLI takes 28 s)
 *   types     next typegen, then tsc --noEmit: what next build checks, so the builds below skip their own check
 *   lint      eslint with 0 warnings, and prettier --check (what `npm run lint` runs)
 *   unit      vitest run (unit, SQL and contract tests)
 *   build     next build, twice: the embedded default (.next), and the site configured for a Sanity
 *             project whose Content Lake is the local stand-in (.next-hosted); skipped when
 *             SKIP_BUILD=1 and both builds exist
 *   browser   playwright test (against those builds, in Debian's chromium-headless-shell: testkit/browser.ts)
 *
 * `npm test -- unit browser` runs only the steps named, in this order; arguments after `--` go to the
 * runner of a single step (`npm test -- browser -- tests/e2e/studio.spec.ts`). One step runs only when
 * named: `npm test -- build repeat` runs the browser tests a change touched five times each (before a
 * change lands; `npm test -- repeat -- <git ref>` to say since when). It ends with each step's
 * time and the slowest tests beside their limits (testkit/test-timings.ts). The environment (CI included)
 * is passed on unchanged; tools print their own summaries.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Before anything else: an older Node cannot even load the TypeScript modules below.
import { requireNodeVersion } from '../lib/env/node-version.mjs';

requireNodeVersion();

const { HOSTED_DIST_DIR } = await import('../testkit/hosted.ts');
const { buildHosted } = await import('../testkit/hosted-build.ts');
const { APP_ROOT: ROOT } = await import('../testkit/paths.ts');
const { runBuild } = await import('../testkit/standalone.ts');
const { clearTimings, slowestTestsReport } = await import('../testkit/test-timings.ts');

const BIN = path.join(ROOT, 'node_modules', '.bin');
const TYPEGEN_OUTPUT = 'sanity.types.ts';
// The origin the browser tests serve the build on (playwright.config.ts); canonical URLs are built in.
const E2E_SITE_URL = `http://127.0.0.1:${process.env.E2E_PORT || 3100}`;

// This Node (24 under .ci/run or .nvmrc) and the project's tools first on PATH for every child.
const env = {
  ...process.env,
  PATH: [path.dirname(process.execPath), BIN, process.env.PATH].filter(Boolean).join(path.delimiter),
  NEXT_TELEMETRY_DISABLED: '1',
};

const REPEATS = 5;
const STEPS = [
  { name: 'typegen', title: 'TypeGen output is up to date', run: typegen },
  { name: 'types', title: 'Type check (next typegen, tsc --noEmit)', run: types },
  { name: 'lint', title: 'Lint and format (eslint --max-warnings=0, prettier --check)', run: lint },
  { name: 'unit', title: 'Unit, SQL and contract tests (vitest run)', run: (args) => exec('vitest', ['run', ...args]) },
  { name: 'build', title: 'Production builds (next build: embedded, and hosted on the local Content Lake)', run: build },
  { name: 'browser', title: 'Browser tests (playwright test)', run: (args) => exec('playwright', ['test', ...args]) },
  // Not in the default run: a change's browser tests, each REPEATS times, before it lands.
  { name: 'repeat', title: `The browser tests a change touched, ${REPEATS} times each`, run: repeatChanged, optional: true },
];

/**
 * The browser tests a change touched, each REPEATS times: the spec files changed since `ref` (default:
 * the branch's upstream, else the last commit), uncommitted changes included, and every spec that imports
 * a changed file (Playwright's --only-changed follows the imports: a change to testkit/studio.ts repeats
 * every Studio spec). A test that fails one run in five fails here.
 */
function repeatChanged(args) {
  const [ref = git(['rev-parse', '--verify', '--quiet', '@{upstream}']).status === 0 ? '@{upstream}' : 'HEAD~1', ...rest] = args;
  console.log(`changed since ${ref}, each test ${REPEATS} times`);
  return exec('playwright', ['test', `--only-changed=${ref}`, `--repeat-each=${REPEATS}`, '--pass-with-no-tests', ...rest]);
}

/** Runs a tool from node_modules/.bin in the repo root; returns its exit code. */
function exec(tool, args, extraEnv = {}) {
  const result = spawnSync(path.join(BIN, tool), args, { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  if (result.error) {
    console.error(`could not run ${tool}: ${result.error.message}`);
    return 1;
  }
  return result.status ?? 1;
}

/**
 * Like exec, for the Sanity CLI: its spinner, which in a log is a line per file of
 * "Generating query types… / Processed n of m files", is dropped; everything else is printed.
 */
function execQuiet(tool, args) {
  const result = spawnSync(path.join(BIN, tool), args, { cwd: ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) {
    console.error(`could not run ${tool}: ${result.error.message}`);
    return 1;
  }
  const progress = /^\s*(- .*…(\s*\([\d.]+%\))?|└─ Processed \d+ of \d+ files.*)$/;
  const keep = (text) =>
    text
      .split('\n')
      .filter((line) => !progress.test(line))
      .join('\n');
  process.stdout.write(keep(result.stdout ?? ''));
  process.stderr.write(keep(result.stderr ?? ''));
  return result.status ?? 1;
}

/**
 * What `npm run typecheck` checks, and what next build checks on its own: the route types Next generates
 * (page props, route handlers, links) as well as every module. So the builds that follow need not check again.
 */
function types() {
  return exec('next', ['typegen']) || exec('tsc', ['--noEmit']);
}

/** What `npm run lint` checks; both run even when ESLint fails, so one run reports every problem. */
function lint() {
  const eslint = exec('eslint', ['--max-warnings=0', '.']);
  const prettier = exec('prettier', ['--check', '.']);
  return eslint || prettier;
}

function git(args) {
  return spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
}

function typegen() {
  const file = path.join(ROOT, TYPEGEN_OUTPUT);
  const before = existsSync(file) ? readFileSync(file) : null;
  const code = execQuiet('sanity', ['typegen', 'generate']);
  if (code !== 0) return code;

  // Committed: compare with the commit (what CI checks out). Otherwise: with what was there.
  const tracked = git(['ls-files', '--error-unmatch', '--', TYPEGEN_OUTPUT]).status === 0;
  const stale = tracked
    ? git(['diff', '--exit-code', '--stat', '--', TYPEGEN_OUTPUT])
    : { status: before?.equals(readFileSync(file)) ? 0 : 1, stdout: '' };
  if (stale.status === 0) {
    console.log(`${TYPEGEN_OUTPUT} matches schema.json and the queries${tracked ? '' : ' (not committed yet)'}.`);
    return 0;
  }
  if (stale.stdout) console.log(stale.stdout);
  console.error('TypeGen output is stale: run npm run typegen and commit');
  return 1;
}

async function build() {
  const builds = [process.env.NEXT_DIST_DIR || '.next', HOSTED_DIST_DIR];
  if (process.env.SKIP_BUILD === '1' && builds.every((dir) => existsSync(path.join(ROOT, dir, 'BUILD_ID')))) {
    console.log(`SKIP_BUILD=1: using the existing builds in ${builds.join(' and ')}`);
    return 0;
  }
  const buildEnv = {
    NEXT_PUBLIC_SITE_URL: process.env.NEXT_PUBLIC_SITE_URL || E2E_SITE_URL,
    // The types step checked this same tree a moment ago: each build's own check would repeat it (next.config.ts).
    ...(passedSteps.has('types') ? { TYPES_CHECKED: '1' } : {}),
  };
  try {
    await runBuild({ ...env, ...buildEnv });
  } catch (error) {
    console.error(error.message);
    return 1;
  }
  return buildHosted({ ...env, ...buildEnv });
}

/** The steps named on the command line (all when none), and what follows `--` for a single step's runner. */
function selection(argv) {
  const split = argv.indexOf('--');
  const names = split === -1 ? argv : argv.slice(0, split);
  const passed = split === -1 ? [] : argv.slice(split + 1);
  const unknown = names.filter((name) => !STEPS.some((step) => step.name === name));
  if (unknown.length > 0) {
    console.error(`npm test: no step named ${unknown.join(', ')}; the steps are ${STEPS.map((step) => step.name).join(', ')}`);
    process.exit(2);
  }
  const steps = names.length === 0 ? STEPS.filter((step) => !step.optional) : STEPS.filter((step) => names.includes(step.name));
  if (passed.length > 0 && steps.length !== 1) {
    console.error("npm test: arguments after -- go to one step's runner: name exactly one step");
    process.exit(2);
  }
  return { steps, passed };
}

const bar = (text) => `\n${'='.repeat(8)} ${text} ${'='.repeat(Math.max(8, 72 - text.length))}\n`;
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

const { steps, passed } = selection(process.argv.slice(2));
clearTimings();
const times = [];
const passedSteps = new Set();
const started = performance.now();
for (const [i, step] of steps.entries()) {
  const label = `[${i + 1}/${steps.length}] ${step.title}`;
  console.log(bar(label));
  const stepStarted = performance.now();
  const code = await step.run(passed);
  times.push(`  ${seconds(stepStarted).padStart(9)}  ${step.name}`);
  if (code !== 0) {
    console.error(bar(`FAILED ${label} (exit code ${code}, ${seconds(stepStarted)})`));
    process.exit(code);
  }
  passedSteps.add(step.name);
  console.log(`\n${label}: passed in ${seconds(stepStarted)}`);
}
console.log(bar(`All ${steps.length} steps passed in ${seconds(started)}`));
console.log(['Each step:', ...times, '', slowestTestsReport()].join('\n'));
