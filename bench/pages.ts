#!/usr/bin/env node
/**
 * npm run measure:build — what the site costs to build and to load, next to the empty Next page of
 * bench/fixture/ (same Next, same node_modules, built the same way):
 *   1. a clean `next build`: wall time, and the peak resident memory of the whole process tree (Next's
 *      build workers included): the sum over the tree and the largest single process;
 *   2. `next start`, then the gzip -9 bytes of JS, CSS and HTML a first load of each page downloads
 *      (testkit/page-bytes.ts, as the browser budget test counts them).
 *
 * Prints a table, writes bench/build-report.json and bench/fixture-floor.json (the empty page's bytes,
 * committed: the budget test compares `/` against it without building the fixture).
 * `--fixture-only` re-measures only the floor (e.g. after a Next upgrade). The site is built into its
 * own dist dir (.next-measure, or MEASURE_DIST_DIR): a running `next start` or the test build in .next
 * is never touched.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { APP_ROOT } from '../lib/app-root.mjs';
import { PUBLIC_PATHS } from '../lib/public-pages.ts';
import { FIXTURE_DIR, timedBuild } from './lib/build.ts';
import { startAppServer } from '../testkit/app-server.ts';
import { pageBytes } from '../testkit/page-bytes.ts';
import { table } from './lib/report.ts';

const SITE_DIST_DIR = process.env.MEASURE_DIST_DIR || '.next-measure';
/** The budget: `/` may load at most this many gzip bytes of JS more than the empty page. */
const BUDGET_BYTES = 20 * 1024;
const log = (line: string) => console.log(`[measure] ${line}`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const version = (name: string) =>
  (JSON.parse(readFileSync(path.join(APP_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** A clean build of `dir`, then the bytes of each of `routes` on `next start`. */
async function measure(label: string, dir: string, distDir: string, routes: readonly string[]) {
  // Its own data dir, so measuring never writes to the store in .data/.
  const env = { DATA_DIR: path.join(APP_ROOT, 'bench', '.tmp', 'measure-data') };
  const build = await timedBuild({ dir, distDir, env, log });
  const server = await startAppServer({ ...env, NEXT_DIST_DIR: distDir }, { dir });
  try {
    const bytes = [];
    for (const route of routes) bytes.push({ route, ...(await pageBytes(server.origin, route)) });
    return { label, ...build, bytes };
  } finally {
    await server.stop();
  }
}

const fixtureOnly = process.argv.includes('--fixture-only');
const measured = [
  ...(fixtureOnly ? [] : [await measure('site', APP_ROOT, SITE_DIST_DIR, PUBLIC_PATHS)]),
  await measure('fixture', FIXTURE_DIR, '.next', ['/']),
];
const floor = measured.at(-1)!.bytes[0]!;
writeFileSync(
  path.join(APP_ROOT, 'bench', 'fixture-floor.json'),
  `${JSON.stringify(
    {
      comment:
        'gzip bytes a first load of the empty page of bench/fixture downloads; written by npm run measure:build, read by tests/e2e/budget.spec.ts. Re-measure after a Next or React upgrade.',
      next: version('next'),
      react: version('react'),
      route: '/',
      // No HTML bytes: they move by a byte or two with each build's id, which would churn this committed file.
      jsGzip: floor.js,
      cssGzip: floor.css,
      budgetBytes: BUDGET_BYTES,
    },
    null,
    2,
  )}\n`,
);
const rows = measured.flatMap((app) =>
  app.bytes.map((page, i) => [
    i ? '' : app.label,
    page.route,
    i ? '' : `${app.buildSeconds} s`,
    i ? '' : `${app.peakRssMB} MB`,
    i ? '' : `${app.peakProcessRssMB} MB`,
    kb(page.js),
    kb(page.css),
    kb(page.html),
  ]),
);
console.log(`\n${table([['', 'route', 'build', 'peak tree RSS', 'largest process', 'JS gzip', 'CSS gzip', 'HTML gzip'], ...rows])}\n`);
if (!fixtureOnly) {
  const siteJs = measured[0]!.bytes[0]!.js;
  const limit = floor.js + BUDGET_BYTES;
  console.log(
    `/ loads ${kb(siteJs)} of gzip JS; the empty page ${kb(floor.js)}; budget floor + 20 KB = ${kb(limit)}: ${siteJs <= limit ? `within, ${kb(limit - siteJs)} to spare` : `OVER by ${kb(siteJs - limit)}`}`,
  );
  const report = {
    next: version('next'),
    react: version('react'),
    apps: measured,
    budgetBytes: BUDGET_BYTES,
    floorPlus20KB: siteJs <= limit,
  };
  writeFileSync(path.join(APP_ROOT, 'bench', 'build-report.json'), `${JSON.stringify(report, null, 2)}\n`);
}
