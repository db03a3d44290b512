/**
 * The quota measurement's targets, each measured in one variant at a time: `without` (the two take_quota
 * triggers dropped: today's insert path) or `with` them. The store and PostgREST get a fresh database
 * per run; a site's two servers start on its first run and serve every round, stopped by stopSites.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';

import { createClient } from '@supabase/supabase-js';

import { insertAsAnon, openStore } from '../../lib/store/pglite-core.mjs';
import { startAppServer, type AppServer } from '../../testkit/app-server.ts';
import { LIFTED_QUOTAS, startSupabaseStack, supabaseEnv } from '../../testkit/postgrest-harness.ts';
import { cpuSeconds, treeCpuSeconds } from '../../testkit/processes.ts';
import { buildPaths, buildState } from '../../testkit/standalone.ts';
import { readStore, storeDir } from '../../testkit/store.ts';
import { submissionLoad } from '../lib/http-load.ts';
import { run, summarize, visitorFields, type Result, type Summary } from '../lib/load-measure.ts';
import type { WriteSettings } from '../lib/write-settings.ts';
import { round } from '../report.ts';

export type Variant = 'without' | 'with';
export const VARIANTS: readonly Variant[] = ['without', 'with'];

/** What the quota migration added to the insert path; dropping it leaves today's. */
export const DROP_QUOTA_TRIGGERS = [
  'drop trigger take_quota on public.support_requests',
  'drop trigger take_quota on public.newsletter_subscribers',
];

/** One run of one variant; the CPU figures are there only where they were measured. */
export type VariantRun = {
  acceptedPerSecond: number | null;
  p50: number | null;
  /** CPU µs per insert of the store in this process, or of the site's server. */
  cpuUsPerInsert?: number;
  /** PostgreSQL's and PostgREST's, when a site stores there. */
  databaseCpuUsPerInsert?: number | null;
  /** autocannon's CPU over the run's wall time (the site's client). */
  clientShare?: number | null;
};

export type QuotaContext = {
  settings: WriteSettings;
  /** This run's scratch folder (bench/.tmp/quotas-<pid>). */
  dir: string;
  log: (line: string) => void;
  /** A run whose inserts were not all stored, or not all accepted: the run fails. */
  problems: string[];
  /** The sites measured so far, their servers and stores to stop. */
  sites: Site[];
};

const clientKey = (client: number) => `198.51.100.${client + 1}`;
let sequence = 0;
const row = () => ({ ...visitorFields('q', ++sequence), type: 'feedback' });

/** The SQLSTATE of a database error, else its message. */
function errorText(error: unknown): string {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown };
  return String(code || message || error);
}

async function timed(work: () => Promise<unknown>): Promise<Result> {
  const started = performance.now();
  try {
    await work();
    return { outcome: 'accepted', ms: performance.now() - started };
  } catch (error) {
    return { outcome: `error: ${errorText(error)}`, ms: performance.now() - started };
  }
}

/** Every insert must have been stored: none refused, none lost. */
function check(ctx: QuotaContext, label: string, summary: Summary, stored: number | undefined) {
  if (summary.errors || summary.failed || stored !== summary.accepted)
    ctx.problems.push(
      `${label}: ${summary.accepted} accepted, ${stored} stored, ${summary.errors} errors ${JSON.stringify(summary.errorKinds)}`,
    );
}

/** Inserts as anon straight into a fresh embedded store in this process, as the server's worker does. */
export async function storeOnly(ctx: QuotaContext, variant: Variant, fsync: boolean): Promise<VariantRun> {
  const { clients, seconds } = ctx.settings;
  const dir = await mkdtemp(path.join(ctx.dir, 'store-'));
  const db = await openStore(path.join(dir, 'pglite'), { fsync, quotas: LIFTED_QUOTAS });
  try {
    if (variant === 'without') for (const sql of DROP_QUOTA_TRIGGERS) await db.query(sql);
    // The store runs in this thread: its CPU time per insert is the cost itself, less swayed by what
    // else runs on the machine than inserts per second are.
    const cpu = process.cpuUsage();
    const samples = await run(clients, seconds, (client) =>
      timed(() =>
        variant === 'with' ? insertAsAnon(db, 'support_requests', row(), clientKey(client)) : insertAsAnon(db, 'support_requests', row()),
      ),
    );
    const used = process.cpuUsage(cpu);
    const summary = { ...summarize(samples, seconds), cpuUsPerInsert: Math.round((used.user + used.system) / samples.length) };
    const counted = await db.query<{ n: number }>('select count(*)::int as n from public.support_requests');
    check(ctx, `store ${variant}`, summary, counted.rows[0]?.n);
    return summary;
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Inserts through real PostgREST over PGlite with supabase-js and the public key, as the site's store sends them. */
export async function postgrest(ctx: QuotaContext, variant: Variant): Promise<VariantRun> {
  const { clients, seconds } = ctx.settings;
  const stack = await startSupabaseStack({ quotas: LIFTED_QUOTAS });
  try {
    if (variant === 'without') for (const sql of DROP_QUOTA_TRIGGERS) await stack.query(sql);
    const supabase = createClient(stack.url, stack.publishableKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    });
    const samples = await run(clients, seconds, (client) =>
      timed(async () => {
        const insert = supabase.from('support_requests').insert(row());
        const { error } = await (variant === 'with' ? insert.setHeader('x-client-address', clientKey(client)) : insert);
        if (error) throw error;
      }),
    );
    const summary = summarize(samples, seconds);
    const [counted] = await stack.query<{ n: number }>('select count(*)::int as n from public.support_requests');
    check(ctx, `postgrest ${variant}`, summary, counted?.n);
    return summary;
  } finally {
    await stack.close();
  }
}

/** The same limits as the app's settings: its in-process limiter, and what its server writes to the database. */
const LIFTED_ENV = {
  RATE_LIMIT_MAX: String(LIFTED_QUOTAS.clientMax),
  RATE_LIMIT_SITE_MAX: String(LIFTED_QUOTAS.siteMax),
  RATE_LIMIT_WINDOW_SECONDS: String(LIFTED_QUOTAS.windowSeconds),
};
const SITE_SUBJECT = 'quotas site ';
const WARM_UP_SECONDS = 3;

type Backend = 'embedded' | 'postgres';
/** What a site's server stores into: `env` for it, `pids` besides it to measure, the count an SQL selects. */
type SiteStore = {
  env: Record<string, string>;
  pids: () => number[];
  count: (sql: string, params: unknown[]) => Promise<number>;
  close: () => Promise<void>;
};
/** One variant of a site: its store, then its server once started. */
type Side = { store: SiteStore; server?: AppServer };
export type Site = {
  backend: Backend;
  sides: Partial<Record<Variant, Side>>;
  rounds: number;
  accepted: Record<Variant, number>;
};

const backends: Record<Backend, (dir: string, variant: Variant) => Promise<SiteStore>> = {
  /** The embedded store in DATA_DIR, migrated and its triggers dropped before the server opens it: it finds nothing to apply. */
  async embedded(dir, variant) {
    const data = path.join(dir, variant);
    const db = await openStore(storeDir(data), { quotas: LIFTED_QUOTAS });
    if (variant === 'without') for (const sql of DROP_QUOTA_TRIGGERS) await db.query(sql);
    await db.close();
    return {
      env: { DATA_DIR: data },
      pids: () => [],
      count: async (sql, params) => (await readStore<{ n: number }>(data, sql, params))[0]?.n ?? 0,
      close: async () => {},
    };
  },
  /** A Supabase stand-in over Debian's PostgreSQL (PostgREST in front), as the site's instances share one. */
  async postgres(dir, variant) {
    const stack = await startSupabaseStack({ database: 'postgres', quotas: LIFTED_QUOTAS });
    if (variant === 'without') for (const sql of DROP_QUOTA_TRIGGERS) await stack.query(sql);
    return {
      env: {
        DATA_DIR: path.join(dir, `${variant}-postgres`),
        ...supabaseEnv(stack),
      },
      pids: () => stack.pids(),
      count: async (sql, params) => (await stack.query<{ n: number }>(sql, params))[0]?.n ?? 0,
      close: () => stack.close(),
    };
  },
};

/** The existing build, never a new one: a measurement must not rebuild under others' feet. */
function existingBuild(log: (line: string) => void) {
  const { state, reason } = buildState(buildPaths(process.env.NEXT_DIST_DIR || undefined));
  if (state === 'missing') throw new Error(`${reason}: run next build first (NEXT_DIST_DIR picks another build)`);
  if (state === 'stale') log(`warning: ${reason}; measuring the existing build`);
}

/** The site's form posts on `backend`: both variants started on its first run, then measured alike. */
export function siteTarget(ctx: QuotaContext, backend: Backend) {
  const site: Site = { backend, sides: {}, rounds: 0, accepted: { without: 0, with: 0 } };
  ctx.sites.push(site);
  const { clients, seconds } = ctx.settings;
  let starting: Promise<void> | undefined;
  async function start() {
    existingBuild(ctx.log);
    const servers: AppServer[] = [];
    for (const variant of VARIANTS) {
      // The store is noted before its server starts, so that it is closed whatever happens next.
      const side: Side = { store: await backends[backend](ctx.dir, variant) };
      site.sides[variant] = side;
      servers.push((side.server = await startAppServer({ ...side.store.env, ...LIFTED_ENV })));
    }
    // A new server compiles and fills its caches on its first requests: warmed up alike, outside the measured rows.
    for (const server of servers) await submissionLoad(server.origin, 'quotas warm-up #', clients, WARM_UP_SECONDS);
  }
  return async function measure(variant: Variant): Promise<VariantRun> {
    await (starting ??= start());
    const { server, store } = site.sides[variant] ?? {};
    if (!server || !store) throw new Error(`site (${backend}) ${variant}: no server`);
    // autocannon runs in this process, the server (and its store's thread) in its own, the database in
    // theirs: CPU time per submission is the cost itself, less swayed than submissions per second by a busy machine.
    const storeCpu = () => store.pids().reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
    const [cpu, serverCpu, databaseCpu, started] = [process.cpuUsage(), cpuSeconds(server.pid), storeCpu(), performance.now()];
    const load = await submissionLoad(server.origin, `${SITE_SUBJECT}${variant} ${++site.rounds} #`, clients, seconds);
    const [used, serverUsed, databaseUsed] = [process.cpuUsage(cpu), cpuSeconds(server.pid) - serverCpu, storeCpu() - databaseCpu];
    if (load.refused || load.errors) ctx.problems.push(`site (${backend}) ${variant}: ${load.refused} refused, ${load.errors} errors`);
    site.accepted[variant] += load.ok;
    return {
      acceptedPerSecond: round(load.ok / load.seconds),
      p50: load.p50Ms,
      cpuUsPerInsert: Math.round((serverUsed * 1e6) / load.ok),
      databaseCpuUsPerInsert: store.pids().length ? Math.round((databaseUsed * 1e6) / load.ok) : null,
      clientShare: round((used.user + used.system) / 1000 / (performance.now() - started), 2),
    };
  };
}

export type SiteRows = { site: string; variant: Variant; accepted: number; stored: number };

/**
 * Stops every site's servers, then counts their stores: every submission a server accepted must be a
 * row. More rows than accepted ones were still open when a run stopped counting (at most one per connection and run).
 */
export async function stopSites(ctx: QuotaContext, count: boolean): Promise<SiteRows[]> {
  const sides = ctx.sites.flatMap(({ backend, sides, accepted }) =>
    VARIANTS.flatMap((variant) => (sides[variant] ? [{ backend, variant, accepted: accepted[variant], ...sides[variant] }] : [])),
  );
  await Promise.all(sides.flatMap(({ server }) => (server ? [server.stop()] : [])));
  const counted: SiteRows[] = [];
  for (const { backend, variant, accepted, store } of sides) {
    try {
      if (!count) continue;
      const sql = 'select count(*)::int as n from public.support_requests where starts_with(subject, $1)';
      const stored = await store.count(sql, [SITE_SUBJECT]);
      if (stored < accepted) ctx.problems.push(`site (${backend}) ${variant}: ${accepted} accepted, only ${stored} stored`);
      counted.push({ site: backend, variant, accepted, stored });
    } finally {
      await store.close();
    }
  }
  return counted;
}
