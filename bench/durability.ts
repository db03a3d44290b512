/**
 * `npm run bench -- durability` — what fsync on every commit (STORE_FSYNC=on, the default) costs the
 * embedded store, against PGlite's own default (off), on this machine's disk:
 *
 *   store      20 concurrent inserts as anon straight into the store (openStore in this process): the
 *              database alone, where fsync's share is largest
 *   site       20 clients posting the support form (no JavaScript) to `next start` of the existing
 *              build, each setting on a fresh DATA_DIR: submissions per second as visitors see them
 *   first      the first submission right after the server answers (the store opens at start)
 *
 * fsync's cost moves with whatever else writes to the disk, so the two settings alternate over several
 * rounds and each figure is the median round.
 * Loopback only; every server and store is in a scratch folder under bench/.tmp, removed at the end.
 *   MEASURE_SECONDS  length of each run (default 15)
 *   MEASURE_ROUNDS   rounds of (on, off) (default 3)
 *   NEXT_DIST_DIR    the build to serve (default .next)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

import { insertAsAnon, openStore } from '../lib/store/pglite-core.mjs';
import { startAppServer } from '../testkit/app-server.ts';
import { LIFTED_QUOTAS } from '../testkit/postgrest-harness.ts';
import { stopOnSignals } from '../testkit/processes.ts';
import { run, submit, summarize, visitorFields, type Result, type Summary } from './lib/load-measure.ts';
import { withTempDir } from './lib/temp-dir.ts';
import { writeSettings, type WriteSettings } from './lib/write-settings.ts';
import type { Report, Row } from './report.ts';

type Setting = 'on' | 'off';
const SETTINGS: readonly Setting[] = ['on', 'off'];

type SiteRun = { firstWriteMs: number; firstOutcome: Result['outcome']; submit: Summary };
/** The median round of one setting, whole, with every round's rate beside it. */
type Median<T> = T & { rounds: (number | null)[] };

const STORE_CLIENT = 'PGlite in-process (openStore, inserts as anon)';
const SITE_CLIENT = 'Node http (the form posted as a browser without JavaScript)';

const log = (line: string) => process.stderr.write(`[durability ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

async function storeOnly(scratch: string, { clients, seconds }: WriteSettings, fsync: boolean): Promise<Summary> {
  const dir = await mkdtemp(path.join(scratch, 'store-'));
  // The database's quotas lifted, as the site's server lifts them from its RATE_LIMIT_* (app-server.ts).
  const db = await openStore(path.join(dir, 'pglite'), { fsync, quotas: LIFTED_QUOTAS });
  try {
    let id = 0;
    const samples = await run(clients, seconds, async (): Promise<Result> => {
      const started = performance.now();
      await insertAsAnon(db, 'support_requests', { ...visitorFields('s', ++id), type: 'feedback' });
      return { outcome: 'accepted', ms: performance.now() - started };
    });
    return summarize(samples, seconds);
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function throughSite(scratch: string, { clients, seconds }: WriteSettings, fsync: Setting): Promise<SiteRun> {
  const dataDir = await mkdtemp(path.join(scratch, 'site-'));
  const server = await startAppServer({ DATA_DIR: dataDir, STORE_FSYNC: fsync });
  try {
    let id = 0;
    const first = await submit(undefined, server.origin, visitorFields('f', ++id));
    const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
    const samples = await run(clients, seconds, () => submit(agent, server.origin, visitorFields('f', ++id)));
    agent.destroy();
    return { firstWriteMs: Math.round(first.ms), firstOutcome: first.outcome, submit: summarize(samples, seconds) };
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The round whose rate is the median, whole (its latencies and first write too). */
function medianRound<T>(rounds: T[], perSecond: (round: T) => number | null): Median<T> {
  const sorted = [...rounds].sort((a, b) => (perSecond(a) ?? 0) - (perSecond(b) ?? 0));
  return { ...sorted[Math.floor(sorted.length / 2)]!, rounds: rounds.map(perSecond) };
}

const cost = (on: number | null, off: number | null) => (on === null || !off ? null : Math.round((1 - on / off) * 1000) / 10);

const rateRow = (measure: string, client: string, unit: string, s: Median<Summary>): Row => ({
  measure,
  client,
  result: `${s.acceptedPerSecond} ${unit}/s, p50 ${s.p50} ms, p99 ${s.p99} ms, ${s.errors + s.failed} errors; rounds ${s.rounds.join(', ')}`,
});

function durabilityRows(store: Record<Setting, Median<Summary>>, site: Record<Setting, Median<SiteRun>>): Row[] {
  const siteSubmit = (setting: Setting) => ({ ...site[setting].submit, rounds: site[setting].rounds });
  return [
    ...SETTINGS.map((setting) => rateRow(`store alone, fsync ${setting}`, STORE_CLIENT, 'inserts', store[setting])),
    ...SETTINGS.map((setting) => rateRow(`site form, STORE_FSYNC=${setting}`, SITE_CLIENT, 'submissions', siteSubmit(setting))),
    ...SETTINGS.map((setting) => ({
      measure: `first write after a start, STORE_FSYNC=${setting}`,
      client: SITE_CLIENT,
      result: `${site[setting].firstWriteMs} ms (${site[setting].firstOutcome})`,
    })),
    {
      measure: "fsync's cost, store alone",
      client: STORE_CLIENT,
      result: `${cost(store.on.acceptedPerSecond, store.off.acceptedPerSecond)} % of inserts/s`,
    },
    {
      measure: "fsync's cost, site form",
      client: SITE_CLIENT,
      result: `${cost(site.on.submit.acceptedPerSecond, site.off.submit.acceptedPerSecond)} % of submissions/s`,
    },
  ];
}

export async function measure(): Promise<Report> {
  const settings = writeSettings(15);
  const { clients, seconds, rounds } = settings;
  // Ctrl-C stops the servers this run started (the scratch folder removes itself).
  stopOnSignals();
  const raw = await withTempDir('durability', async (scratch) => {
    const runs = { store: { on: [] as Summary[], off: [] as Summary[] }, site: { on: [] as SiteRun[], off: [] as SiteRun[] } };
    for (let round = 1; round <= rounds; round += 1) {
      for (const setting of SETTINGS) {
        log(`round ${round}: store only, fsync ${setting}, ${clients} writers for ${seconds} s`);
        runs.store[setting].push(await storeOnly(scratch, settings, setting === 'on'));
      }
    }
    for (let round = 1; round <= rounds; round += 1) {
      for (const setting of SETTINGS) {
        log(`round ${round}: site, STORE_FSYNC=${setting}, ${clients} clients for ${seconds} s`);
        runs.site[setting].push(await throughSite(scratch, settings, setting));
      }
    }
    return runs;
  });
  const store = { on: medianRound(raw.store.on, (s) => s.acceptedPerSecond), off: medianRound(raw.store.off, (s) => s.acceptedPerSecond) };
  const siteRate = (s: SiteRun) => s.submit.acceptedPerSecond;
  const site = { on: medianRound(raw.site.on, siteRate), off: medianRound(raw.site.off, siteRate) };
  return {
    rows: durabilityRows(store, site),
    notes: [
      `${clients} concurrent writers, median of ${rounds} rounds of ${seconds} s (MEASURE_ROUNDS, MEASURE_SECONDS), on and off in turn: ` +
        "fsync's cost moves with whatever else writes to the disk. The first write is the median round's; errors count failures shown too.",
    ],
    details: { settings, store, site, raw },
  };
}
