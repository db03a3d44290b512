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
 *   site       the bench's submissions (scripts/lib/http-load.ts: 20 autocannon connections posting the
 *              support form as the page's script does, each answer checked) to the production build, one
 *              server per variant on its own DATA_DIR, both started once (built first when missing or
 *              stale); the "without" store is migrated and its triggers dropped before its server opens
 *              it, so the server finds nothing to apply. All posts come from 127.0.0.1: one client key.
 *   site-postgres  the same posts, each server on its own Supabase stand-in over Debian's PostgreSQL
 *              (testkit/postgrest-harness.ts), as many instances share one store; its triggers dropped
 *              for "without"; also PostgreSQL's and PostgREST's CPU per submission.
 *
 * Each writer is one client with its own key (x-client-address), and every insert has its own text. The
 * limits are lifted (10^9; for the site also its in-process limiter, through the same RATE_LIMIT_*
 * settings), so every insert is counted and none refused: the cost of counting. The two variants
 * alternate over rounds (the store and PostgREST on fresh databases); each figure is the median round.
 * Loopback only; every store, stack and temp dir is removed at the end. Writes bench/quotas-report.json.
 *   MEASURE_SECONDS  length of each run (default 10)
 *   MEASURE_ROUNDS   rounds of (without, with) (default 3)
 *   MEASURE_ONLY     some of store, postgrest, site, site-postgres, comma-separated (default: all)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { createClient } from '@supabase/supabase-js';

import { insertAsAnon, openStore } from '../lib/support/pglite-core.mjs';
import { startAppServer } from '../testkit/app-server.ts';
import { startSupabaseStack } from '../testkit/postgrest-harness.ts';
import { APP_ROOT } from '../testkit/paths.ts';
import { cpuSeconds, treeCpuSeconds } from '../testkit/processes.ts';
import { readStore, storeDir } from '../testkit/store.ts';

import { currentBuild } from './lib/build.ts';
import { submissionLoad } from './lib/http-load.ts';
import { run, summarize, visitorFields } from './lib/load-measure.mjs';
import { median, reportHead, round, table, writeMeasure } from './lib/report.ts';

const { report: REPORT, seconds: SECONDS, rounds: ROUNDS, clients: CLIENTS } = writeMeasure('quotas', 10);
const LIFTED = { clientMax: 1e9, siteMax: 1e9, windowSeconds: 600 };
const VARIANTS = ['without', 'with'];
/** What the quota migration added to the insert path; dropping it leaves today's. */
const DROP_QUOTA_TRIGGERS = [
  'drop trigger take_quota on public.support_requests',
  'drop trigger take_quota on public.newsletter_subscribers',
];

/** The same limits as the app's settings: its in-process limiter, and what its server writes to the database. */
const LIFTED_ENV = {
  RATE_LIMIT_MAX: String(LIFTED.clientMax),
  RATE_LIMIT_SITE_MAX: String(LIFTED.siteMax),
  RATE_LIMIT_WINDOW_SECONDS: String(LIFTED.windowSeconds),
};
const SITE_SUBJECT = 'quotas site ';
const WARM_UP_SECONDS = 3;
/** autocannon's CPU over a run's wall time at which it, not the server, is the limit (as in the bench). */
const CLIENT_BOUND = 0.9;

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

const siteDir = await mkdtemp(path.join(os.tmpdir(), 'quotas-site-'));

/**
 * What a site's server stores into, per variant: `env` for the server, `pids` of processes besides it
 * to measure, `stored(sql, params)` the count the SQL selects (once the servers stopped), `close`.
 */
const backends = {
  /** The embedded store in DATA_DIR, migrated and its triggers dropped before the server opens it. */
  async embedded(variant) {
    const data = path.join(siteDir, variant);
    const db = await openStore(storeDir(data), { quotas: LIFTED });
    if (variant === 'without') for (const sql of DROP_QUOTA_TRIGGERS) await db.query(sql);
    await db.close();
    return {
      env: { DATA_DIR: data },
      pids: () => [],
      stored: async (sql, params) => (await readStore(data, sql, params))[0].n,
      close: async () => {},
    };
  },
  /** A Supabase stand-in over Debian's PostgreSQL (PostgREST in front), as the site's instances share one. */
  async postgres(variant) {
    const stack = await startSupabaseStack({ database: 'postgres', quotas: LIFTED });
    if (variant === 'without') for (const sql of DROP_QUOTA_TRIGGERS) await stack.query(sql);
    return {
      env: {
        DATA_DIR: path.join(siteDir, `${variant}-postgres`),
        NEXT_PUBLIC_SUPABASE_URL: stack.url,
        NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: stack.publishableKey,
      },
      pids: stack.pids,
      stored: async (sql, params) => (await stack.query(sql, params))[0].n,
      close: stack.close,
    };
  },
};

/** Each site target's sides: per variant its backend and production server, as they started. */
const sites = [];
const stopServers = () => Promise.all(sites.flatMap(({ sides }) => Object.values(sides).map(({ server }) => server?.stop())));

/** The site's form posts on `backend`: both variants started on its first round, then measured alike. */
function siteTarget(backend) {
  const site = { backend, sides: {}, rounds: 0, accepted: { without: 0, with: 0 } };
  sites.push(site);
  let starting;
  async function start() {
    await currentBuild(log);
    for (const variant of VARIANTS) {
      const store = await backends[backend](variant);
      site.sides[variant] = { store };
      site.sides[variant].server = await startAppServer({ ...store.env, ...LIFTED_ENV });
    }
    // A new server compiles and fills its caches on its first requests: warmed up alike, outside the measured rows.
    for (const variant of VARIANTS) await submissionLoad(site.sides[variant].server.origin, 'quotas warm-up #', CLIENTS, WARM_UP_SECONDS);
  }
  async function measure(variant) {
    await (starting ??= start());
    const { server, store } = site.sides[variant];
    // autocannon runs in this process, the server (and its store's thread) in its own, the database in
    // theirs: CPU time per submission is the cost itself, less swayed than submissions per second by a busy machine.
    const storeCpu = () => store.pids().reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
    const [cpu, serverCpu, databaseCpu, started] = [process.cpuUsage(), cpuSeconds(server.pid), storeCpu(), performance.now()];
    const load = await submissionLoad(server.origin, `${SITE_SUBJECT}${variant} ${++site.rounds} #`, CLIENTS, SECONDS);
    const [used, serverUsed, databaseUsed] = [process.cpuUsage(cpu), cpuSeconds(server.pid) - serverCpu, storeCpu() - databaseCpu];
    if (load.refused || load.errors) throw new Error(`site (${backend}) ${variant}: ${load.refused} refused, ${load.errors} errors`);
    site.accepted[variant] += load.ok;
    return {
      acceptedPerSecond: round(load.ok / load.seconds),
      accepted: load.ok,
      p50: load.p50Ms,
      cpuUsPerInsert: Math.round((serverUsed * 1e6) / load.ok),
      databaseCpuUsPerInsert: store.pids().length ? Math.round((databaseUsed * 1e6) / load.ok) : null,
      clientShare: round((used.user + used.system) / 1000 / (performance.now() - started), 2),
    };
  }
  return measure;
}

/** Every submission the sites' (stopped) servers accepted must be a row of their store. */
async function checkSiteRows() {
  const sql = 'select count(*)::int as n from public.support_requests where starts_with(subject, $1)';
  for (const { backend, sides, accepted } of sites) {
    for (const [variant, { store }] of Object.entries(sides)) {
      const stored = await store.stored(sql, [SITE_SUBJECT]);
      // Rows beyond the accepted ones were still open when a run stopped counting (at most one per connection and round).
      if (stored < accepted[variant]) throw new Error(`site (${backend}) ${variant}: ${accepted[variant]} accepted, only ${stored} stored`);
      log(`site (${backend}) ${variant}: ${accepted[variant]} accepted, ${stored} stored`);
    }
  }
}

const ONLY = process.env.MEASURE_ONLY?.split(',');
const TARGETS = [
  { key: 'store', name: 'store alone, fsync on (inserts/s)', measure: (variant) => storeOnly(variant, true) },
  { key: 'store', name: 'store alone, fsync off (inserts/s)', measure: (variant) => storeOnly(variant, false) },
  { key: 'postgrest', name: 'PostgREST + supabase-js (inserts/s)', measure: postgrest },
  { key: 'site', name: 'site, form posts (submissions/s)', measure: siteTarget('embedded') },
  { key: 'site-postgres', name: 'site on PostgreSQL + PostgREST (submissions/s)', measure: siteTarget('postgres') },
].filter(({ key }) => !ONLY || ONLY.includes(key));

const raw = Object.fromEntries(TARGETS.map(({ name }) => [name, { without: [], with: [] }]));
try {
  for (let turn = 1; turn <= ROUNDS; turn += 1) {
    for (const { name, measure } of TARGETS) {
      // Alternate which goes first, so a machine getting busier or quieter does not favour one.
      for (const variant of turn % 2 ? VARIANTS : [...VARIANTS].reverse()) {
        log(`round ${turn}: ${name}, ${variant} quotas, ${CLIENTS} writers for ${SECONDS} s`);
        raw[name][variant].push(await measure(variant));
      }
    }
  }
  await stopServers();
  await checkSiteRows();
} finally {
  await stopServers();
  await Promise.all(sites.flatMap(({ sides }) => Object.values(sides).map(({ store }) => store.close())));
  await rm(siteDir, { recursive: true, force: true });
}

const cost = (withQuotas, without) => Math.round((1 - withQuotas / without) * 1000) / 10;
const report = {
  ...reportHead({ seconds: SECONDS, rounds: ROUNDS, clients: CLIENTS }),
  targets: {},
};
for (const { name } of TARGETS) {
  const perSecond = (variant) => raw[name][variant].map((summary) => summary.acceptedPerSecond);
  const both = (key) => Object.fromEntries(VARIANTS.map((variant) => [variant, median(raw[name][variant].map((summary) => summary[key]))]));
  const without = median(perSecond('without'));
  const withQuotas = median(perSecond('with'));
  report.targets[name] = {
    without,
    with: withQuotas,
    costPercent: cost(withQuotas, without),
    p50: both('p50'),
    cpuUsPerInsert: both('cpuUsPerInsert'),
    databaseCpuUsPerInsert: both('databaseCpuUsPerInsert'),
    autocannonCpu: both('clientShare'),
    rounds: { without: perSecond('without'), with: perSecond('with') },
  };
}
await mkdir(path.dirname(REPORT), { recursive: true });
await writeFile(REPORT, `${JSON.stringify(report, null, 2)}\n`);

/**
 * CPU per insert of the store in this process or of the site's server (and of PostgreSQL + PostgREST
 * when it stores there); for the site, autocannon's share of a core.
 */
function cpuCell({ cpuUsPerInsert, databaseCpuUsPerInsert, autocannonCpu }) {
  if (cpuUsPerInsert.without === null) return '(other processes)';
  const perInsert = `${cpuUsPerInsert.without} / ${cpuUsPerInsert.with}`;
  if (autocannonCpu.without === null) return perInsert;
  const database =
    databaseCpuUsPerInsert?.without == null
      ? ''
      : `, ${databaseCpuUsPerInsert.without} / ${databaseCpuUsPerInsert.with} (PostgreSQL + PostgREST)`;
  const bound = Math.max(autocannonCpu.without, autocannonCpu.with) >= CLIENT_BOUND ? ' CLIENT-BOUND' : '';
  return `${perInsert} (server)${database}; autocannon ${Math.round(autocannonCpu.without * 100)} / ${Math.round(autocannonCpu.with * 100)} % of a core${bound}`;
}

console.log(
  `\nQuota cost, ${CLIENTS} concurrent writers (one client key each; the site's all from 127.0.0.1), median of ${ROUNDS} rounds of ${SECONDS} s, ${report.machine}`,
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
      cpuCell(t),
      `${t.rounds.without.join(', ')} | ${t.rounds.with.join(', ')}`,
    ]),
  ]),
);
console.log(`report: ${path.relative(APP_ROOT, REPORT)}`);
