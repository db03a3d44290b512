/** The quota measurement's targets as figures (the median of each variant's runs), report rows and notes. */
import type { WriteSettings } from '../lib/write-settings.ts';
import { median, type Row } from '../report.ts';
import type { SiteRows, Variant, VariantRun } from './variants.ts';

export type Target = {
  /** What MEASURE_ONLY names it by. */
  key: string;
  name: string;
  /** What one write is: an insert, or a submission of the form. */
  unit: string;
  client: string;
  measure: (variant: Variant) => Promise<VariantRun>;
};

type Both = Record<Variant, number | null>;

export type Figures = {
  without: number | null;
  with: number | null;
  /** How much of the rate without quotas counting them costs, in percent. */
  costPercent: number | null;
  p50: Both;
  cpuUsPerInsert: Both;
  databaseCpuUsPerInsert: Both;
  autocannonCpu: Both;
  rounds: Record<Variant, (number | null)[]>;
};

/** autocannon's CPU over a run's wall time at which it, not the server, is the limit (as in the bench). */
const CLIENT_BOUND = 0.9;

export function figures(runs: Record<Variant, VariantRun[]>): Figures {
  const both = (key: keyof VariantRun): Both => ({
    without: median(runs.without.map((run) => run[key])),
    with: median(runs.with.map((run) => run[key])),
  });
  const perSecond = both('acceptedPerSecond');
  return {
    without: perSecond.without,
    with: perSecond.with,
    costPercent: perSecond.with === null || !perSecond.without ? null : Math.round((1 - perSecond.with / perSecond.without) * 1000) / 10,
    p50: both('p50'),
    cpuUsPerInsert: both('cpuUsPerInsert'),
    databaseCpuUsPerInsert: both('databaseCpuUsPerInsert'),
    autocannonCpu: both('clientShare'),
    rounds: { without: runs.without.map((run) => run.acceptedPerSecond), with: runs.with.map((run) => run.acceptedPerSecond) },
  };
}

const clientBound = (share: number | null) => share !== null && share >= CLIENT_BOUND;

/**
 * CPU per write of the store in this process, or of the site's server (and of PostgreSQL + PostgREST
 * when it stores there) with autocannon's share of a core; nothing where it was not measured.
 */
function cpu(f: Figures, variant: Variant, unit: string): string {
  const perWrite = f.cpuUsPerInsert[variant];
  const share = f.autocannonCpu[variant];
  if (perWrite === null) return '';
  if (share === null) return `, CPU ${perWrite} µs/${unit}`;
  const database = f.databaseCpuUsPerInsert[variant];
  return (
    `, server CPU ${perWrite} µs/${unit}${database === null ? '' : `, PostgreSQL + PostgREST ${database} µs/${unit}`}` +
    `, autocannon ${Math.round(share * 100)} % of a core${clientBound(share) ? ' CLIENT-BOUND' : ''}`
  );
}

export function quotaRows(measured: { target: Target; figures: Figures }[]): Row[] {
  return measured.flatMap(({ target: { name, unit, client }, figures: f }) => {
    const row = (variant: Variant, rate: string): Row => ({
      measure: `${name}, ${variant} quotas`,
      client,
      result: `${rate}, p50 ${f.p50[variant]} ms${cpu(f, variant, unit)}; rounds ${f.rounds[variant].join(', ')}`,
    });
    return [row('without', `${f.without} ${unit}s/s`), row('with', `${f.with} ${unit}s/s (cost ${f.costPercent} %)`)];
  });
}

export function quotaNotes({ clients, rounds, seconds }: WriteSettings, measured: { figures: Figures }[], siteRows: SiteRows[]): string[] {
  const bound = measured.some(({ figures: f }) => clientBound(f.autocannonCpu.without) || clientBound(f.autocannonCpu.with));
  return [
    `${clients} concurrent writers, each its own client key (x-client-address; the site's all from 127.0.0.1: one key); ` +
      `median of ${rounds} rounds of ${seconds} s (MEASURE_ROUNDS, MEASURE_SECONDS), without and with in turn, the order flipped each round.`,
    'Limits lifted to 10^9 (the site in-process limiter too), so every insert is counted and none refused: the cost is that of counting. ' +
      '"without" drops the two take_quota triggers: today\'s insert path. cost = 1 - with/without.',
    "CPU per write (the cost itself, less swayed by a busy machine than the rates): the store's in this process, or the site's server's " +
      'and, when it stores there, PostgreSQL + PostgREST; none for PostgREST + supabase-js, whose client and PGlite share this process.',
    ...(bound ? ['CLIENT-BOUND: autocannon used >= 90 % of a core in that run, so it, not the server, set the rate.'] : []),
    ...(siteRows.length
      ? [`site rows (accepted / stored): ${siteRows.map((s) => `${s.site} ${s.variant} ${s.accepted} / ${s.stored}`).join('; ')}`]
      : []),
  ];
}
