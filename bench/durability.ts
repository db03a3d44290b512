#!/usr/bin/env node
/**
 * npm run measure:durability — what fsync on every commit (STORE_FSYNC=on, the default) costs the
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
 * Loopback only; every server, store and temp dir is removed at the end. Writes bench/durability-report.json.
 *   MEASURE_SECONDS  length of each run (default 15)
 *   MEASURE_ROUNDS   rounds of (on, off) (default 3)
 *   NEXT_DIST_DIR    the build to serve (default .next)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { insertAsAnon, openStore } from '../lib/support/pglite-core.mjs';
import { startAppServer } from '../testkit/app-server.ts';
import { APP_ROOT } from '../testkit/paths.ts';

import { run, submit, summarize, visitorFields } from './lib/load-measure.mjs';
import { reportHead, writeMeasure } from './lib/report.ts';

const { report: REPORT, seconds: SECONDS, rounds: ROUNDS, clients: CLIENTS } = writeMeasure('durability', 15);
const SETTINGS = ['on', 'off'];

const log = (...args) => console.log(`[durability ${new Date().toISOString().slice(11, 19)}]`, ...args);

async function storeOnly(fsync) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'durability-store-'));
  // The database's quotas lifted, as the site's server lifts them from its RATE_LIMIT_* (app-server.ts).
  const db = await openStore(path.join(dir, 'pglite'), { fsync, quotas: { clientMax: 1e9, siteMax: 1e9, windowSeconds: 600 } });
  try {
    let id = 0;
    const samples = await run(CLIENTS, SECONDS, async () => {
      const started = performance.now();
      await insertAsAnon(db, 'support_requests', { ...visitorFields('s', ++id), type: 'feedback' });
      return { outcome: 'accepted', ms: performance.now() - started };
    });
    return summarize(samples, SECONDS);
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function site(fsync) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'durability-site-'));
  const server = await startAppServer({ DATA_DIR: dataDir, STORE_FSYNC: fsync });
  try {
    let id = 0;
    const first = await submit(undefined, server.origin, visitorFields('f', ++id));
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    const samples = await run(CLIENTS, SECONDS, () => submit(agent, server.origin, visitorFields('f', ++id)));
    agent.destroy();
    return { firstWriteMs: Math.round(first.ms), firstOutcome: first.outcome, submit: summarize(samples, SECONDS) };
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The round whose submissions per second are the median, whole (its latencies and first write too). */
function medianRound(rounds, perSecond) {
  const sorted = [...rounds].sort((a, b) => perSecond(a) - perSecond(b));
  return { ...sorted[Math.floor(sorted.length / 2)], rounds: rounds.map(perSecond) };
}

const report = {
  ...reportHead({ seconds: SECONDS, rounds: ROUNDS, clients: CLIENTS }),
  store: {},
  site: {},
};
const raw = { store: { on: [], off: [] }, site: { on: [], off: [] } };
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const setting of SETTINGS) {
    log(`round ${round}: store only, fsync ${setting}, ${CLIENTS} writers for ${SECONDS} s`);
    raw.store[setting].push(await storeOnly(setting === 'on'));
  }
}
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const setting of SETTINGS) {
    log(`round ${round}: site, STORE_FSYNC=${setting}, ${CLIENTS} clients for ${SECONDS} s`);
    raw.site[setting].push(await site(setting));
  }
}
for (const setting of SETTINGS) {
  report.store[setting] = medianRound(raw.store[setting], (s) => s.acceptedPerSecond);
  report.site[setting] = medianRound(raw.site[setting], (s) => s.submit.acceptedPerSecond);
}
const cost = (on, off) => Math.round((1 - on / off) * 1000) / 10;
report.costPercent = {
  store: cost(report.store.on.acceptedPerSecond, report.store.off.acceptedPerSecond),
  site: cost(report.site.on.submit.acceptedPerSecond, report.site.off.submit.acceptedPerSecond),
};
await mkdir(path.dirname(REPORT), { recursive: true });
await writeFile(REPORT, `${JSON.stringify(report, null, 2)}\n`);

const row = (label, s) =>
  `${label.padEnd(28)} ${String(s.acceptedPerSecond).padStart(8)}/s  p50 ${String(s.p50).padStart(7)} ms  p99 ${String(s.p99).padStart(7)} ms  errors ${s.errors + s.failed}`;
console.log(`\nDurability cost, ${CLIENTS} concurrent writers, median of ${ROUNDS} rounds of ${SECONDS} s, ${report.machine}`);
for (const setting of SETTINGS)
  console.log(`${row(`store only, fsync ${setting}`, report.store[setting])}  rounds ${report.store[setting].rounds.join(', ')}`);
for (const setting of SETTINGS)
  console.log(`${row(`site form, STORE_FSYNC=${setting}`, report.site[setting].submit)}  rounds ${report.site[setting].rounds.join(', ')}`);
for (const setting of SETTINGS)
  console.log(
    `first write after a start, STORE_FSYNC=${setting}: ${report.site[setting].firstWriteMs} ms (${report.site[setting].firstOutcome})`,
  );
console.log(
  `fsync costs ${report.costPercent.store}% of the store's inserts/s and ${report.costPercent.site}% of the site's submissions/s`,
);
console.log(`report: ${path.relative(APP_ROOT, REPORT)}`);
