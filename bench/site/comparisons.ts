/**
 * The `site` measurement's comparisons: two sides up at once, measured in alternating rounds with the
 * same client and settings. Page views with wrk, the best round of each side; form posts with
 * autocannon, which checks each answer, over all rounds; then what each side's store kept.
 */
import path from 'node:path';

import { readStore } from '../../testkit/store.ts';
import { alternate, combine, statusLoad, submissionLoad } from '../lib/http-load.ts';
import { best, BROWSER_ACCEPT_ENCODING, wrk, type WrkRun } from '../lib/wrk.ts';
import { round } from '../report.ts';
import type { Servers } from './servers.ts';
import { AUTOCANNON, CONFIG, ENCODINGS, log, MADE_UP, SUBJECT_PREFIX, type Encoding } from './settings.ts';

/** Page views of two pages with wrk in alternating rounds, after a warm-up of each: each side's best round. */
async function comparePages<Side extends string>(urls: Record<Side, string>, acceptEncoding: string) {
  const sides = Object.keys(urls) as Side[];
  const load = (side: Side, seconds: number) =>
    wrk(urls[side], {
      threads: CONFIG.wrkThreads,
      connections: CONFIG.wrkConnections,
      seconds,
      headers: { accept: 'text/html', 'accept-encoding': acceptEncoding },
    });
  for (const side of sides) await load(side, CONFIG.warmupSeconds);
  const runs = await alternate(CONFIG.rounds, sides, (side) => load(side, CONFIG.pageSeconds));
  return Object.fromEntries(sides.map((side) => [side, best(runs[side])])) as Record<Side, WrkRun>;
}

/** `/` through the cache and from the files, in each encoding. */
export async function compareEncodings(servers: Servers) {
  const results = {} as Record<Encoding, { cache: WrkRun; file: WrkRun }>;
  for (const encoding of Object.keys(ENCODINGS) as Encoding[]) {
    log(`/ through the cache and from the files, Accept-Encoding: ${ENCODINGS[encoding]}`);
    results[encoding] = await comparePages({ cache: `${servers.stack}/`, file: `${servers.file}/` }, ENCODINGS[encoding]);
  }
  return results;
}

/** `/` on the bare server against the fixture's plain page of the same bytes, asked as Chrome asks. */
export function compareBare(servers: Servers) {
  log('/ on the bare server and the plain page of the same bytes');
  return comparePages({ site: `${servers.bare}/`, sameBytes: `${servers.fixture}/same-bytes` }, BROWSER_ACCEPT_ENCODING);
}

/** Runs `load` in alternating rounds of `sides`, with autocannon's CPU time (it runs in this process) over the wall time. */
async function autocannonRounds<Side extends string, Run>(sides: readonly Side[], load: (side: Side) => Promise<Run>) {
  const [cpuBefore, started] = [process.cpuUsage(), performance.now()];
  const runs = await alternate(CONFIG.rounds, sides, load);
  const cpu = process.cpuUsage(cpuBefore);
  return { runs, clientShare: round((cpu.user + cpu.system) / 1000 / (performance.now() - started), 2) ?? 0 };
}

/**
 * `/` and a made-up path on the bare server, asked with a Host it does not listen on, in alternating
 * rounds after a warm-up of each; an answer other than the page's 200 or the made-up path's 404 counts
 * as refused.
 */
export async function compareMadeUp(servers: Servers) {
  log(`/ and ${MADE_UP.path} on the bare server, Host: ${MADE_UP.host} (${AUTOCANNON})`);
  const headers = { host: MADE_UP.host, accept: 'text/html', 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const sides = { page: { path: '/', status: 200 }, madeUp: { path: MADE_UP.path, status: 404 } } as const;
  const load = (side: keyof typeof sides, seconds: number) =>
    statusLoad(`${servers.bare}${sides[side].path}`, sides[side].status, headers, CONFIG.connections, seconds);
  for (const side of ['page', 'madeUp'] as const) await load(side, CONFIG.warmupSeconds);
  const { runs, clientShare } = await autocannonRounds(['page', 'madeUp'] as const, (side) => load(side, CONFIG.pageSeconds));
  return { page: combine(runs.page), madeUp: combine(runs.madeUp), clientShare };
}

/**
 * Support submissions through the cache and to the bare server, in alternating rounds, each round its
 * own subjects; with autocannon's CPU time (it runs in this process) over the wall time.
 */
export async function compareSubmissions(servers: Servers) {
  log('submissions through the cache and to the bare server');
  let turn = 0;
  const origins = { cache: servers.stack, bare: servers.bare };
  const { runs, clientShare } = await autocannonRounds(['cache', 'bare'] as const, (side) =>
    submissionLoad(origins[side], `${SUBJECT_PREFIX}${side} ${++turn} #`, CONFIG.connections, CONFIG.submitSeconds / CONFIG.rounds),
  );
  return { cache: combine(runs.cache), bare: combine(runs.bare), clientShare };
}

/** Rows each side's store holds from the run (read once its server stopped): every accepted submission must be one. */
export async function storedRows(dir: string) {
  const count = async (side: string) =>
    (
      await readStore<{ n: number }>(
        path.join(dir, `data-${side}`),
        'select count(*)::int as n from support_requests where starts_with(subject, $1)',
        [SUBJECT_PREFIX],
      )
    )[0]?.n ?? 0;
  return { cache: await count('cache'), bare: await count('bare') };
}
