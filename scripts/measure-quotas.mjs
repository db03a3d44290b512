#!/usr/bin/env node
/**
 * npm run measure:quotas — what the database's quotas (supabase/migrations/*_quotas.sql) cost a write:
 * inserts per second with the quota trigger against the same database without it, which is today's
 * insert path (the two take_quota triggers dropped: nothing counted, nothing read from the headers).
 *
 *   store      20 concurrent writers inserting as anon straight into the embedded store (openStore in this
 *              process, as the server's worker does), with fsync on (the server's default) and off
 *   postgrest  20 concurrent writers through real PostgREST over PGlite (testkit/postgrest-harness.ts)
 *              with supabase-js and the public key, as the site's store sends them
 *
 * Each writer is one client with its own key (x-client-address), and every insert has its own text. The
 * limits are lifted (10^9), so every insert is counted and none refused: the cost of counting. The two
 * variants alternate over rounds on fresh databases; each figure is the median round.
 * Loopback only; every store, stack and temp dir is removed at the end. Writes bench/quotas-report.json.
 *   MEASURE_SECONDS  length of each run (default 10)
 *   MEASURE_ROUNDS   rounds of (without, with) (default 3)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { createClient } from '@supabase/supabase-js';

import { insertAsAnon, openStore } from '../lib/support/pglite-core.mjs';
import { startSupabaseStack } from '../testkit/postgrest-harness.ts';
import { APP_ROOT } from '../testkit/paths.ts';

import { run, summarize, visitorFields } from './lib/load-measure.mjs';
import { median, reportHead, table, writeMeasure } from './lib/report.ts';

const { report: REPORT, seconds: SECONDS, rounds: ROUNDS, clients: CLIENTS } = writeMeasure('quotas', 10);
const LIFTED = { clientMax: 1e9, siteMax: 1e9, windowSeconds: 600 };
const VARIANTS = ['without', 'with'];
/** What the quota migration added to the insert path; dropping it leaves today's. */
const DROP_QUOTA_TRIGGERS = [
  'drop trigger take_quota on public.support_requests',
  'drop trigger take_quota on public.newsletter_subscribers',
];

const log = (...args) => console.log(`[quotas ${new Date().toISOString().slice(11, 19)}]`, ...args);
const clientKey = (client) => `198.51.100.${client + 1}`;
let sequence = 0;
const row = () => ({ ...visitorFields('q', ++sequence), type: 'feedback' });

/** Counts what a run stored: every insert must have been stored (none refused, none lost). */
async function check(label, summary, stored) {
  if (summary.errors || summary.failed || stored !== summary.accepted) {
    throw new Error(
      `${label}: ${summary.accepted} accepted, ${stored} stored, ${summary.errors} errors ${JSON.stringify(summary.errorKinds)}`,
    );
  }
}

async function timed(work) {
  const started = performance.now();
  try {
    await work();
    return { outcome: 'accepted', ms: performance.now() - started };
  } catch (error) {
    return { outcome: `error: ${error?.code ?? error?.message ?? error}`, ms: performance.now() - started };
  }
}

async function storeOnly(variant, fsync) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quotas-store-'));
  const db = await openStore(path.join(dir, 'pglite'), { fsync, quotas: LIFTED });
  try {
    if (variant === 'without') for (const sql of DROP_QUOTA_TRIGGERS) await db.query(sql);
    // The store runs in this thread: its CPU time per insert is the cost itself, less swayed by what
    // else runs on the machine than inserts per second are.
    const cpu = process.cpuUsage();
    const samples = await run(CLIENTS, SECONDS, (client) =>
      timed(() =>
        variant === 'with' ? insertAsAnon(db, 'support_requests', row(), clientKey(client)) : insertAsAnon(db, 'support_requests', row()),
      ),
    );
    const used = process.cpuUsage(cpu);
    const summary = { ...summarize(samples, SECONDS), cpuUsPerInsert: Math.round((used.user + used.system) / samples.length) };
    const stored = (await db.query('select count(*)::int as n from public.support_requests')).rows[0].n;
    await check(`store ${variant}`, summary, stored);
    return summary;
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function postgrest(variant) {
  const stack = await startSupabaseStack({ quotas: { ...LIFTED } });
  try {
    if (variant === 'without') for (const sql of DROP_QUOTA_TRIGGERS) await stack.query(sql);
    const supabase = createClient(stack.url, stack.publishableKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    });
    const samples = await run(CLIENTS, SECONDS, (client) =>
      timed(async () => {
        const insert = supabase.from('support_requests').insert(row());
        const { error } = await (variant === 'with' ? insert.setHeader('x-client-address', clientKey(client)) : insert);
        if (error) throw error;
      }),
    );
    const summary = summarize(samples, SECONDS);
    const [{ n: stored }] = await stack.query('select count(*)::int as n from public.support_requests');
    await check(`postgrest ${variant}`, summary, stored);
    return summary;
  } finally {
    await stack.close();
  }
}

const TARGETS = [
  { name: 'store alone, fsync on (inserts/s)', measure: (variant) => storeOnly(variant, true) },
  { name: 'store alone, fsync off (inserts/s)', measure: (variant) => storeOnly(variant, false) },
  { name: 'PostgREST + supabase-js (inserts/s)', measure: postgrest },
];

const raw = Object.fromEntries(TARGETS.map(({ name }) => [name, { without: [], with: [] }]));
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const { name, measure } of TARGETS) {
    // Alternate which goes first, so a machine getting busier or quieter does not favour one.
    for (const variant of round % 2 ? VARIANTS : [...VARIANTS].reverse()) {
      log(`round ${round}: ${name}, ${variant} quotas, ${CLIENTS} writers for ${SECONDS} s`);
      raw[name][variant].push(await measure(variant));
    }
  }
}

const cost = (withQuotas, without) => Math.round((1 - withQuotas / without) * 1000) / 10;
const report = {
  ...reportHead({ seconds: SECONDS, rounds: ROUNDS, clients: CLIENTS }),
  targets: {},
};
for (const { name } of TARGETS) {
  const perSecond = (variant) => raw[name][variant].map((summary) => summary.acceptedPerSecond);
  const p50 = (variant) => median(raw[name][variant].map((summary) => summary.p50));
  const cpu = (variant) => median(raw[name][variant].map((summary) => summary.cpuUsPerInsert));
  const without = median(perSecond('without'));
  const withQuotas = median(perSecond('with'));
  report.targets[name] = {
    without,
    with: withQuotas,
    costPercent: cost(withQuotas, without),
    p50: { without: p50('without'), with: p50('with') },
    cpuUsPerInsert: { without: cpu('without'), with: cpu('with') },
    rounds: { without: perSecond('without'), with: perSecond('with') },
  };
}
await mkdir(path.dirname(REPORT), { recursive: true });
await writeFile(REPORT, `${JSON.stringify(report, null, 2)}\n`);

console.log(
  `\nQuota cost, ${CLIENTS} concurrent writers (one client key each), median of ${ROUNDS} rounds of ${SECONDS} s, ${report.machine}`,
);
console.log(
  table([
    ['', 'without quotas', 'with quotas', 'cost', 'p50 without / with (ms)', 'CPU µs/insert without / with', 'rounds without | with'],
    ...Object.entries(report.targets).map(([name, t]) => [
      name,
      t.without,
      t.with,
      `${t.costPercent} %`,
      `${t.p50.without} / ${t.p50.with}`,
      t.cpuUsPerInsert.without === null ? '(other processes)' : `${t.cpuUsPerInsert.without} / ${t.cpuUsPerInsert.with}`,
      `${t.rounds.without.join(', ')} | ${t.rounds.with.join(', ')}`,
    ]),
  ]),
);
console.log(`report: ${path.relative(APP_ROOT, REPORT)}`);
