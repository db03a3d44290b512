/**
 * `npm run bench -- quotas` — what the database's quotas (supabase/migrations/*_quotas.sql) cost a write:
 * inserts per second with the quota trigger against the same database without it, which is today's
 * insert path (the two take_quota triggers dropped: nothing counted, nothing read from the headers).
 *
 *   store      20 concurrent writers inserting as anon straight into the embedded store (openStore in this
 *              process, as the server's worker does), with fsync on (the server's default) and off
 *   postgrest  20 concurrent writers through real PostgREST over PGlite (testkit/postgrest-harness.ts)
 *              with supabase-js and the public key, as the site's store sends them
 *   site       the bench's submissions (bench/lib/http-load.ts: 20 autocannon connections posting the
 *              support form as the page's script does, each answer checked) to the existing production
 *              build (it builds nothing), one server per variant on its own DATA_DIR, both started once;
 *              the "without" store is migrated and its triggers dropped before its server opens it, so
 *              the server finds nothing to apply. All posts come from 127.0.0.1: one client key.
 *   site-postgres  the same posts, each server on its own Supabase stand-in over Debian's PostgreSQL
 *              (testkit/postgrest-harness.ts), as many instances share one store; its triggers dropped
 *              for "without"; also PostgreSQL's and PostgREST's CPU per submission.
 *
 * Each writer is one client with its own key (x-client-address), and every insert has its own text. The
 * limits are lifted (10^9; for the site also its in-process limiter, through the same RATE_LIMIT_*
 * settings), so every insert is counted and none refused: the cost of counting. The two variants
 * alternate over rounds (the store and PostgREST on fresh databases); each figure is the median round.
 * An insert refused or not stored, or a submission accepted but not stored, is a problem: the run fails.
 * Loopback only; every store, stack and server is stopped, and the scratch folder under bench/.tmp removed.
 *   MEASURE_SECONDS  length of each run (default 10)
 *   MEASURE_ROUNDS   rounds of (without, with) (default 3)
 *   MEASURE_ONLY     some of store, postgrest, site, site-postgres, comma-separated (default: all)
 *   NEXT_DIST_DIR    the build the sites serve (default .next)
 */
import { stopOnSignals } from '../../testkit/processes.ts';
import { withTempDir } from '../lib/temp-dir.ts';
import { writeSettings } from '../lib/write-settings.ts';
import type { Report } from '../report.ts';
import { figures, quotaNotes, quotaRows, type Target } from './rows.ts';
import {
  postgrest,
  siteTarget,
  stopSites,
  storeOnly,
  VARIANTS,
  type QuotaContext,
  type SiteRows,
  type Variant,
  type VariantRun,
} from './variants.ts';

const log = (line: string) => process.stderr.write(`[quotas ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const STORE = 'PGlite in-process (openStore, inserts as anon)';
const SITE = "autocannon (the form posted as the page's script does)";

function quotaTargets(ctx: QuotaContext): Target[] {
  const targets: Target[] = [
    { key: 'store', name: 'store alone, fsync on', unit: 'insert', client: STORE, measure: (variant) => storeOnly(ctx, variant, true) },
    { key: 'store', name: 'store alone, fsync off', unit: 'insert', client: STORE, measure: (variant) => storeOnly(ctx, variant, false) },
    {
      key: 'postgrest',
      name: 'PostgREST + supabase-js',
      unit: 'insert',
      client: 'supabase-js (PostgREST over PGlite)',
      measure: (variant) => postgrest(ctx, variant),
    },
    { key: 'site', name: 'site, form posts', unit: 'submission', client: SITE, measure: siteTarget(ctx, 'embedded') },
    {
      key: 'site-postgres',
      name: 'site on PostgreSQL + PostgREST',
      unit: 'submission',
      client: SITE,
      measure: siteTarget(ctx, 'postgres'),
    },
  ];
  const only = process.env.MEASURE_ONLY?.split(',').map((key) => key.trim());
  const unknown = only?.filter((key) => !targets.some((target) => target.key === key));
  if (unknown?.length) throw new Error(`MEASURE_ONLY: no target named ${unknown.join(', ')} (store, postgrest, site, site-postgres)`);
  return targets.filter(({ key }) => !only || only.includes(key));
}

export async function measure(): Promise<Report> {
  const settings = writeSettings(10);
  const { clients, seconds, rounds } = settings;
  // Ctrl-C stops every server and stand-in this run started (the scratch folder removes itself).
  stopOnSignals();
  return withTempDir('quotas', async (dir) => {
    const ctx: QuotaContext = { settings, dir, log, problems: [], sites: [] };
    const targets = quotaTargets(ctx);
    const runs = new Map<Target, Record<Variant, VariantRun[]>>(targets.map((target) => [target, { without: [], with: [] }]));
    let finished = false;
    let siteRows: SiteRows[] = [];
    try {
      for (let turn = 1; turn <= rounds; turn += 1) {
        for (const target of targets) {
          // Alternate which goes first, so a machine getting busier or quieter does not favour one.
          for (const variant of turn % 2 ? VARIANTS : [...VARIANTS].reverse()) {
            log(`round ${turn}: ${target.name}, ${variant} quotas, ${clients} writers for ${seconds} s`);
            runs.get(target)![variant].push(await target.measure(variant));
          }
        }
      }
      finished = true;
    } finally {
      // The stores are counted only after a whole run, and only once their servers let go of them.
      siteRows = await stopSites(ctx, finished);
    }
    const measured = targets.map((target) => ({ target, figures: figures(runs.get(target)!) }));
    return {
      rows: quotaRows(measured),
      notes: quotaNotes(settings, measured, siteRows),
      details: {
        settings,
        targets: Object.fromEntries(measured.map(({ target, figures }) => [target.name, { ...figures, runs: runs.get(target) }])),
        siteRows,
      },
      problems: ctx.problems,
    };
  });
}
