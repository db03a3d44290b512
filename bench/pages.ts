/**
 * `pages` — what the site costs to build and to load, next to the empty Next page of bench/fixture/
 * (same Next, same node_modules, built the same way):
 *   1. a clean `next build`: wall time, and the peak resident memory of the whole process tree (Next's
 *      build workers included): the sum over the tree and the largest single process;
 *   2. `next start`, then the gzip -9 bytes of JS, CSS and HTML a first load of each page downloads
 *      (testkit/page-bytes.ts, as the browser budget test counts them).
 *
 * Re-records bench/fixture-floor.json (the empty page's bytes, committed: the budget test compares `/`
 * against it without building the fixture). `--fixture-only` re-measures only the floor (e.g. after a
 * Next upgrade). The site is built into its own dist dir (.next-measure, or MEASURE_DIST_DIR): a running
 * `next start` or the test build in .next is never touched.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { startAppServer } from '../testkit/app-server.ts';
import { pageBytes } from '../testkit/page-bytes.ts';
import { APP_ROOT } from '../testkit/paths.ts';
import { PUBLIC_PATHS } from '../lib/shared/public-pages.ts';
import { FIXTURE_DIR, timedBuild } from './lib/build.ts';
import type { Report, Row } from './report.ts';

const SITE_DIST_DIR = process.env.MEASURE_DIST_DIR || '.next-measure';
const FLOOR_FILE = path.join(APP_ROOT, 'bench', 'fixture-floor.json');
/** The budget: `/` may load at most this many gzip bytes of JS more than the empty page. */
const BUDGET_BYTES = 20 * 1024;
const BUILD_CLIENT = 'next build, timed; its process tree in /proc';
const BYTES_CLIENT = 'Node http (page-bytes.ts, as the budget test counts)';
const log = (line: string) => process.stderr.write(`[pages] ${line}\n`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const version = (name: string) =>
  (JSON.parse(readFileSync(path.join(APP_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** A clean build of `dir`, then the bytes of each of `routes` on `next start`. */
async function buildAndLoad(label: string, dir: string, distDir: string, routes: readonly string[]) {
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
type Measured = Awaited<ReturnType<typeof buildAndLoad>>;

function writeFloor(floor: { js: number; css: number }) {
  const file = {
    comment:
      'gzip bytes a first load of the empty page of bench/fixture downloads; written by npm run bench -- pages, read by tests/e2e/budget.spec.ts. Re-measure after a Next or React upgrade.',
    next: version('next'),
    react: version('react'),
    route: '/',
    // No HTML bytes: they move by a byte or two with each build's id, which would churn this committed file.
    jsGzip: floor.js,
    cssGzip: floor.css,
    budgetBytes: BUDGET_BYTES,
  };
  writeFileSync(FLOOR_FILE, `${JSON.stringify(file, null, 2)}\n`);
}

/** Each app's build, then the bytes of each of its pages. */
const appRows = (app: Measured): Row[] => [
  {
    measure: `${app.label}: clean next build`,
    client: BUILD_CLIENT,
    result: `${app.buildSeconds} s; peak RSS ${app.peakRssMB} MB over the tree, ${app.peakProcessRssMB} MB its largest process`,
  },
  ...app.bytes.map((page) => ({
    measure: `  ${app.label} ${page.route}: first load, gzip`,
    client: BYTES_CLIENT,
    result: `JS ${kb(page.js)}, CSS ${kb(page.css)}, HTML ${kb(page.html)}`,
  })),
];

/** `/`'s JS against the empty page's plus the budget. */
function budgetRow(siteJs: number, floorJs: number): Row {
  const limit = floorJs + BUDGET_BYTES;
  return {
    measure: "site /: JS gzip over the empty page's",
    client: BYTES_CLIENT,
    result: `${kb(siteJs)}, the empty page ${kb(floorJs)}: ${siteJs <= limit ? `${kb(limit - siteJs)} to spare` : `over by ${kb(siteJs - limit)}`}`,
    target: `<= empty page + ${kb(BUDGET_BYTES)} (${kb(limit)})`,
    met: siteJs <= limit,
  };
}

export async function measure(args: string[]): Promise<Report> {
  const fixtureOnly = args.includes('--fixture-only');
  const site = fixtureOnly ? undefined : await buildAndLoad('site', APP_ROOT, SITE_DIST_DIR, PUBLIC_PATHS);
  const fixture = await buildAndLoad('fixture', FIXTURE_DIR, '.next', ['/']);
  const floor = fixture.bytes[0]!;
  writeFloor(floor);
  const apps = site ? [site, fixture] : [fixture];
  return {
    rows: [...apps.flatMap(appRows), ...(site ? [budgetRow(site.bytes[0]!.js, floor.js)] : [])],
    notes: [
      `${path.relative(APP_ROOT, FLOOR_FILE)} re-recorded: the empty page loads ${kb(floor.js)} of gzip JS and ${kb(floor.css)} of CSS (Next ${version('next')}, React ${version('react')}).`,
    ],
    details: { next: version('next'), react: version('react'), siteDistDir: SITE_DIST_DIR, budgetBytes: BUDGET_BYTES, apps },
  };
}
