#!/usr/bin/env node
/**
 * npm run measure:lighthouse — the Lighthouse rows of npm run bench on their own: the site's standalone
 * server (the current production build, a private copy, as the bench's bare server) and the fixture's
 * one-heading page and plain page of the same bytes, with and without the site's stylesheet
 * (bench/fixture), each LH_RUNS=5 times in alternating rounds in one browser, medians. Targets: each page's score >= the one-heading page's − 1; `/`'s LCP
 * no later than the same-bytes page's. `--strict` exits 1 when one is missed.
 */
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';

import { startAppServer } from '../testkit/app-server.ts';
import { seedCopy } from '../testkit/dataset.ts';
import { APP_ROOT } from '../testkit/paths.ts';
import { freePort, stopOnSignals, waitForHttp } from '../testkit/processes.ts';
import { copyStandalone, startApp } from '../testkit/standalone.ts';
import { PUBLIC_PATHS } from '../lib/public-pages.ts';
import { currentBuild, FIXTURE_DIR, fixtureBuild } from './lib/build.ts';
import { fixturePages, lighthouseMedians, lighthouseRows, type LighthousePage } from './lib/lighthouse.ts';
import { envInt, table } from './lib/report.ts';

const runs = envInt('LH_RUNS', 5);
const log = (line: string) => process.stderr.write(`[lighthouse] ${line}\n`);

const dir = path.join(APP_ROOT, 'bench', '.tmp', `lighthouse-${process.pid}`);
stopOnSignals(() => rm(dir, { recursive: true, force: true }));
const paths = await copyStandalone(await currentBuild(log), path.join(dir, 'standalone'));
const port = await freePort();
const site = startApp({
  paths,
  port,
  env: { ...process.env, CONTENT_FILE: await seedCopy(dir), DATA_DIR: path.join(dir, 'data') },
});
try {
  await waitForHttp(`http://127.0.0.1:${port}/`, { child: site });
  await fixtureBuild(log);
  const fixture = await startAppServer({ NEXT_DIST_DIR: '.next' }, { dir: FIXTURE_DIR });
  try {
    log(`${runs} runs per page`);
    const urls = Object.fromEntries(PUBLIC_PATHS.map((page) => [page, `http://127.0.0.1:${port}${page}`]));
    const results = await lighthouseMedians({ ...urls, ...fixturePages(fixture.origin) } as Record<LighthousePage, string>, runs);
    const rows = lighthouseRows(results);
    const load = loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
    process.stdout.write(
      `Lighthouse ${new Date().toISOString()}, median of ${runs}, load average ${load}\n\n${table([['measure', 'client', 'result', 'target', ''], ...rows])}\n`,
    );
    if (process.argv.includes('--strict') && rows.some((row) => row[4] === 'MISSED')) process.exitCode = 1;
  } finally {
    await fixture.stop();
  }
} finally {
  await site.stop();
  await rm(dir, { recursive: true, force: true });
}
