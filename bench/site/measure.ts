/**
 * `site`, the standard set of npm run bench — the site against this machine's limits, in one run on the
 * production build (built first when missing or older than the sources), each target beside its result:
 *
 *   deployed shape (npm run serve:prod's stack: the standalone server behind nginx's cache, deploy/)
 *     /            requests/s and p99 through the cache, against the same nginx serving the same page
 *                  bytes from files compressed once (bench/lib/static-nginx.ts), with the
 *                  Accept-Encoding Chrome sends (brotli), gzip and identity
 *     submissions  support requests/s through the cache, as the page's script sends them, against the
 *                  bare server; rows stored = accepted, none lost
 *     publish      dataset edits posted as signed webhooks, of the default language's policy and of the
 *                  Spanish home page, with ten languages listed: time to the first GET through nginx
 *                  that shows the edit on /privacy and on /es
 *     /studio      time to first byte of its first load after the start, and of later loads
 *   bare server (the standalone server `next start` runs for this build)
 *     /            requests/s against a plain Next page of the same bytes (bench/fixture /same-bytes)
 *     made-up path /wp-login.php against /, with a Host the server does not listen on (autocannon,
 *                  which judges every answer: the page's 200, the made-up path's 404)
 *     Lighthouse   mobile, median of BENCH_LH_RUNS, of each page against the fixture's one-heading page
 *                  and its plain page of the same bytes (`npm run bench -- lighthouse` runs these rows alone)
 *
 * The two sides of each comparison are up at once and measured in alternating rounds with the same
 * client and settings (comparisons.ts). Each row names its client and flags a client that was the
 * limit. Everything runs on 127.0.0.1, on a private copy of the standalone folder (a publish rewrites
 * its pages), with temp files under bench/.tmp.
 *
 * Environment (all optional): BENCH_ROUNDS=3, BENCH_SECONDS=5 (of each page view round per side,
 * after 2 s of warm-up), BENCH_WRK_CONNECTIONS=64, BENCH_SUBMIT_SECONDS=8 (per side, split into the
 * rounds), BENCH_CONNECTIONS=50 (autocannon's), BENCH_EDITS=20, BENCH_STUDIO_LOADS=10, BENCH_LH_RUNS=5,
 * CHROMIUM_PATH, WRK_BIN.
 */
import { findNginx, INSTALL_HINT } from '../../testkit/nginx.ts';
import { addLanguages, postWebhook } from '../../testkit/dataset.ts';
import { sleep } from '../../testkit/processes.ts';
import { measurePublishes, translatedHeadline } from '../../testkit/publish-timing.ts';
import { APPLIED_RUNS, blockingNotes, measureLighthouse } from '../lib/lighthouse.ts';
import { withTempDir } from '../lib/temp-dir.ts';
import type { Report } from '../report.ts';
import { compareBare, compareEncodings, compareMadeUp, compareSubmissions, storedRows } from './comparisons.ts';
import { siteRows, type Results } from './rows.ts';
import { startServers, type Servers } from './servers.ts';
import { AUTOCANNON, CONFIG, LANGUAGE_COUNT, log, MORE_LANGUAGES, TARGETS, WRK } from './settings.ts';

/** Every comparison, with the servers up only for them: the stores are read after they stopped. */
async function measureAll(dir: string, nginxBin: string) {
  const { servers, studio, stop } = await startServers(dir, nginxBin);
  try {
    const pages = await compareEncodings(servers);
    const bare = await compareBare(servers);
    const submissions = await compareSubmissions(servers);
    log(`Lighthouse, ${CONFIG.lighthouseRuns} runs per page`);
    const lighthouse = await measureLighthouse(servers.bare, servers.fixture, CONFIG.lighthouseRuns);
    const madeUp = await compareMadeUp(servers);
    const publish = await publishesInLanguages(servers);
    return { studio, pages, bare, madeUp, submissions, lighthouse, publish };
  } finally {
    await stop();
  }
}

/**
 * CONFIG.edits publishes of the default language's policy and as many of the Spanish home page, each
 * through the cache, once the settings list ten languages: a publish of the default language's text
 * changes its pages in every one of them, a translation its own language's.
 */
async function publishesInLanguages(servers: Servers) {
  await addLanguages(servers.contentFile, MORE_LANGUAGES);
  const settings = await postWebhook(servers.stack, { _type: 'siteSettings', _id: 'siteSettings' }, servers.secret);
  if (!settings.ok) throw new Error(`the settings' webhook answered ${settings.status}`);
  const added = `${servers.stack}/${MORE_LANGUAGES.at(-1)}`;
  for (const deadline = Date.now() + 30_000; (await fetch(added)).status !== 200; await sleep(100))
    if (Date.now() > deadline) throw new Error(`${added} was not served 30 s after the settings listed it`);
  const options = { contentFile: servers.contentFile, secret: servers.secret, publishTo: servers.stack, watch: [servers.stack] };
  log(`${CONFIG.edits} publishes of the default language's policy through the cache, ${LANGUAGE_COUNT} languages`);
  const byDefault = await measurePublishes(options, { count: CONFIG.edits, log });
  log(`${CONFIG.edits} publishes of the Spanish home page's headline`);
  const spanish = await measurePublishes(options, { count: CONFIG.edits, log, target: translatedHeadline('es') });
  return { byDefault, spanish };
}

const NOTES = [
  `${CONFIG.rounds} alternating rounds per comparison: page views the best round of ${CONFIG.pageSeconds} s (${WRK}, after ${CONFIG.warmupSeconds} s of warm-up), submissions all rounds (${AUTOCANNON}, ${CONFIG.submitSeconds} s per side).`,
  "wrk CPU, autocannon CPU: the client's CPU time over the wall time; CLIENT-BOUND at 90 % or more, where the client, not the server, set the rate.",
  'open at the end: rows stored for requests autocannon still had open when it stopped counting (at most one per connection and round).',
  `Lighthouse: mobile, median of ${CONFIG.lighthouseRuns} runs per page, the pages in alternating rounds in one browser; the throttled loads (applied LCP, their TBT) of the first ${Math.min(CONFIG.lighthouseRuns, APPLIED_RUNS)}.`,
];

export async function measure(): Promise<Report> {
  const nginxBin = findNginx(process.env);
  if (!nginxBin) throw new Error(`nginx was not found: ${INSTALL_HINT}`);
  const results: Results = await withTempDir('bench', async (dir) => ({
    ...(await measureAll(dir, nginxBin)),
    stored: await storedRows(dir),
  }));
  return {
    rows: siteRows(results),
    notes: [...NOTES, ...blockingNotes(results.lighthouse)],
    details: { config: CONFIG, targets: TARGETS, results },
  };
}
