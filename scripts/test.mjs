#!/usr/bin/env node
/**
 * npm test — every test, in order, stopping at the first failure:
 *
 *   typegen   sanity.types.ts is what `npm run typegen` generates from schema.json (schema.json itself
 *             is checked by a unit test, schemas/schema-json.test.ts, in a second rather than the CLI's 28 s)
 *   types     next typegen, then tsc --noEmit: what next build checks, so the builds below skip their own check
 *   lint      eslint with 0 warnings, and prettier --check (what `npm run lint` runs)
 *             types and lint run at the same time (each mostly on one core), each printing when it ends
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
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Before anything else: an older Node cannot even load the TypeScript modules below.
import { requireNodeVersion } from '../lib/node-version.mjs';

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
// `together`: run at the same time as the neighbouring steps that have it, when they are run together.
const STEPS = [
  { name: 'typegen', title: 'TypeGen output is up to date', run: typegen },
  { name: 'types', title: 'Type check (next typegen, tsc --noEmit)', run: types, together: true },
  { name: 'lint', title: 'Lint and format (eslint --max-warnings=0, prettier --check)', run: lint, together: true },
  { name: 'unit', title: 'Unit, SQL and contract tests (vitest run)', run: (args, out) => out.exec('vitest', ['run', ...args]) },
  { name: 'build', title: 'Production builds (next build: embedded, and hosted on the local Content Lake)', run: build },
  { name: 'browser', title: 'Browser tests (playwright test)', run: (args, out) => out.exec('playwright', ['test', ...args]) },
  // Not in the default run: a change's browser tests, each REPEATS times, before it lands.
  { name: 'repeat', title: `The browser tests a change touched, ${REPEATS} times each`, run: repeatChanged, optional: true },
];

/**
 * The browser tests a change touched, each REPEATS times: the spec files changed since `ref` (default:
 * the branch's upstream, else the last commit), uncommitted changes included, and every spec that imports
 * a changed file (Playwright's --only-changed follows the imports: a change to testkit/studio.ts repeats
 * every Studio spec). A test that fails one run in five fails here.
 */
function repeatChanged(args, out) {
  const [ref = git(['rev-parse', '--verify', '--quiet', '@{upstream}']).status === 0 ? '@{upstream}' : 'HEAD~1', ...rest] = args;
  out.log(`changed since ${ref}, each test ${REPEATS} times`);
  return out.exec('playwright', ['test', `--only-changed=${ref}`, `--repeat-each=${REPEATS}`, '--pass-with-no-tests', ...rest]);
}

/**
 * Where a step's tools print: this terminal as they run, or (`captured`) a buffer printed when the step
 * ends, so steps that run together do not interleave their lines. `exec` runs a tool from
 * node_modules/.bin in the repo root and resolves to its exit code.
 */
function output(captured) {
  const chunks = [];
  const write = (stream, text) => (captured ? chunks.push(text) : stream.write(text));
  return {
    log: (text) => write(process.stdout, `${text}\n`),
    error: (text) => write(process.stderr, `${text}\n`),
    text: () => chunks.join(''),
    exec: (tool, args) =>
      new Promise((resolve) => {
        const child = spawn(path.join(BIN, tool), args, { cwd: ROOT, env, stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
        child.stdout?.on('data', (chunk) => chunks.push(chunk.toString()));
        child.stderr?.on('data', (chunk) => chunks.push(chunk.toString()));
        child.on('error', (error) => write(process.stderr, `could not run ${tool}: ${error.message}\n`));
        child.on('close', (code) => resolve(code ?? 1));
      }),
  };
}

/**
 * What `npm run typecheck` checks, and what next build checks on its own: the route types Next generates
 * (page props, route handlers, links) as well as every module. So the builds that follow need not check again.
 */
async function types(_, out) {
  return (await out.exec('next', ['typegen'])) || out.exec('tsc', ['--noEmit']);
}

/** What `npm run lint` checks; both run even when ESLint fails, so one run reports every problem. */
async function lint(_, out) {
  const eslint = await out.exec('eslint', ['--max-warnings=0', '.']);
  const prettier = await out.exec('prettier', ['--check', '.']);
  return eslint || prettier;
}

function git(args) {
  return spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
}

/**
 * `sanity typegen generate`, as npm run typegen runs it, must leave sanity.types.ts as committed (or, not
 * committed yet, as it was). The Sanity CLI's spinner, which in a log is a line per file, is dropped.
 */
async function typegen(_, out) {
  const file = path.join(ROOT, TYPEGEN_OUTPUT);
  const before = existsSync(file) ? readFileSync(file) : null;
  const captured = output(true);
  const code = await captured.exec('sanity', ['typegen', 'generate']);
  const progress = /^\s*(- .*…(\s*\([\d.]+%\))?|└─ Processed \d+ of \d+ files.*)$/;
  out.log(
    captured
      .text()
      .split('\n')
      .filter((line) => !progress.test(line))
      .join('\n'),
  );
  if (code !== 0) return code;

  // Committed: compare with the commit (what CI checks out). Otherwise: with what was there.
  const tracked = git(['ls-files', '--error-unmatch', '--', TYPEGEN_OUTPUT]).status === 0;
  const stale = tracked
    ? git(['diff', '--exit-code', '--stat', '--', TYPEGEN_OUTPUT])
    : { status: before?.equals(readFileSync(file)) ? 0 : 1, stdout: '' };
  if (stale.status === 0) {
    out.log(`${TYPEGEN_OUTPUT} matches schema.json and the queries${tracked ? '' : ' (not committed yet)'}.`);
    return 0;
  }
  if (stale.stdout) out.log(stale.stdout);
  out.error('TypeGen output is stale: run npm run typegen and commit');
  return 1;
}

async function build(_, out) {
  const builds = [process.env.NEXT_DIST_DIR || '.next', HOSTED_DIST_DIR];
  if (process.env.SKIP_BUILD === '1' && builds.every((dir) => existsSync(path.join(ROOT, dir, 'BUILD_ID')))) {
    out.log(`SKIP_BUILD=1: using the existing builds in ${builds.join(' and ')}`);
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
    out.error(error.message);
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

/**
 * Runs a step; resolves to a function that prints how it went (its output first, when captured) and
 * returns its exit code, so steps run together report in order.
 */
async function startStep(step, label, captured) {
  const out = output(captured);
  const stepStarted = performance.now();
  if (!captured) console.log(bar(label));
  const code = await step.run(passed, out);
  const time = seconds(stepStarted);
  return () => {
    if (captured) process.stdout.write(bar(label) + out.text());
    times.push(`  ${time.padStart(9)}  ${step.name}`);
    if (code !== 0) {
      console.error(bar(`FAILED ${label} (exit code ${code}, ${time})`));
      return code;
    }
    passedSteps.add(step.name);
    console.log(`\n${label}: passed in ${time}`);
    return 0;
  };
}

for (let i = 0; i < steps.length;) {
  let end = i + 1;
  while (steps[i].together && steps[end]?.together) end += 1;
  const group = steps.slice(i, end);
  if (group.length > 1) console.log(bar(`${group.map((step) => step.name).join(', ')}: at the same time`));
  const finishing = group.map((step, k) => startStep(step, `[${i + k + 1}/${steps.length}] ${step.title}`, group.length > 1));
  let failed = 0;
  for (const finish of finishing) failed ||= (await finish)();
  if (failed) process.exit(failed);
  i = end;
}
console.log(bar(`All ${steps.length} steps passed in ${seconds(started)}`));
console.log(['Each step:', ...times, '', slowestTestsReport()].join('\n'));
