/**
 * `lighthouse` — the Lighthouse rows of `site` on their own: the site's standalone server (the current
 * production build, a private copy, as the bench's bare server) and the fixture's one-heading page and
 * plain page of the same bytes (bench/fixture), each LH_RUNS=5 times in alternating rounds in one
 * browser, medians, with what each page's TBT is made of (bench/lib/main-thread.ts). Targets: in
 * bench/lib/lighthouse.ts (LIGHTHOUSE_TARGETS).
 */
import path from 'node:path';

import { APPLIED_RUNS, blockingNotes, lighthouseRows, measureLighthouse } from './lib/lighthouse.ts';
import { privateSite, startBare, startFixture } from './lib/servers.ts';
import { withTempDir } from './lib/temp-dir.ts';
import { envInt, type Report } from './report.ts';

const log = (line: string) => process.stderr.write(`[lighthouse] ${line}\n`);

export async function measure(): Promise<Report> {
  const runs = envInt('LH_RUNS', 5);
  const results = await withTempDir('lighthouse', async (dir) => {
    const { paths, env } = await privateSite(dir, log);
    const site = await startBare(paths, { ...process.env, ...env, DATA_DIR: path.join(dir, 'data') });
    try {
      const fixture = await startFixture(log);
      try {
        log(`${runs} runs per page`);
        return await measureLighthouse(site.origin, fixture.origin, runs);
      } finally {
        await fixture.stop();
      }
    } finally {
      await site.stop();
    }
  });
  return {
    rows: lighthouseRows(results),
    notes: [
      `Mobile, median of ${runs} runs per page (LH_RUNS), the pages in alternating rounds in one browser; the throttled loads (applied LCP, their TBT) of the first ${Math.min(runs, APPLIED_RUNS)}.`,
      ...blockingNotes(results),
    ],
    details: { runs, results },
  };
}
