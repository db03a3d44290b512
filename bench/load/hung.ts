/**
 * (d) hung: the hosted backend's PostgREST frozen with SIGSTOP for HUNG_SECONDS (it takes connections and
 * never answers), then SIGCONT: visitors hear the failure at the store's deadline, the held inserts
 * commit late, and each visitor's retry is recognised as the same request.
 */
import type { AppServer } from '../../testkit/app-server.ts';
import { reconcile, REQUEST_ROWS, summarize, type RequestRow, type StoreCheck, type Summary } from '../lib/load-measure.ts';
import type { LoadContext } from './context.ts';
import { checkStore, moment, retried, retryTracker, timeline, visitors, withHostedServer, type Attempt, type Events } from './faults.ts';

/** The site's default deadline (lib/env/server.ts storeTimeoutMs); the phase runs with it. */
const DEFAULT_DEADLINE_MS = 10_000;
export const HUNG_SECONDS = 20;

export type HungPhase = {
  clients: number;
  seconds: number;
  hungSeconds: number;
  submit: Summary;
  /** Attempts that started and ended while PostgREST was frozen. */
  whileHung: Summary;
  /** What an accepted answer cost before the fault. */
  before: Summary;
  deadlineMs: number;
  /** The longest a visitor may wait for the failure: the deadline plus 1 s, or plus an ordinary answer's p99 when longer. */
  allowedMs: number;
  retried: number;
  serverAlive: boolean;
  store: StoreCheck;
};

type Run = { samples: Attempt[]; events: Events; started: number; ended: number; third: number };

/** (d)'s figures from its samples. */
function hungFigures(ctx: LoadContext, { samples, events, started, ended, third }: Run, server: AppServer, store: StoreCheck): HungPhase {
  const [pausedAt, resumedAt] = [moment(events, 'pausedAt'), moment(events, 'resumedAt')];
  // What any answer costs on this machine under this load (rendering the page), before the fault.
  const before = summarize(
    samples.filter((sample) => sample.at < pausedAt && sample.outcome === 'accepted'),
    third / 1000,
  );
  return {
    clients: ctx.submitClients,
    seconds: Math.round((ended - started) / 100) / 10,
    hungSeconds: HUNG_SECONDS,
    submit: summarize(samples, (ended - started) / 1000),
    whileHung: summarize(
      samples.filter((sample) => sample.start >= pausedAt && sample.at <= resumedAt),
      HUNG_SECONDS,
    ),
    before,
    deadlineMs: DEFAULT_DEADLINE_MS,
    // On a machine where an ordinary answer already takes longer than 1 s, the deadline may add no more
    // than its own length to what an answer costs there.
    allowedMs: Math.round(DEFAULT_DEADLINE_MS + Math.max(1000, before.p99 ?? 0)),
    retried: retried(samples),
    serverAlive: server.running(),
    store,
  };
}

/** What (d) must show: the failure, in time, while PostgREST hung; the server up; nothing lost or doubled. */
function checkHung(ctx: LoadContext, d: HungPhase) {
  if (!d.serverAlive) ctx.problems.push('(d) the server died');
  if (!d.whileHung.failed) ctx.problems.push('(d) no visitor was told of the failure while PostgREST hung');
  if (d.whileHung.accepted) ctx.problems.push(`(d) ${d.whileHung.accepted} accepted while PostgREST hung`);
  if ((d.whileHung.max ?? 0) > d.allowedMs)
    ctx.problems.push(`(d) a visitor waited ${d.whileHung.max} ms for the failure (allowed ${d.allowedMs} ms)`);
  if (d.submit.errors) ctx.problems.push(`(d) ${d.submit.errors} answers were neither success nor the failure message`);
}

/** (d): PostgREST frozen for HUNG_SECONDS in the middle of the run. */
export function hungPhase(ctx: LoadContext): Promise<HungPhase> {
  return withHostedServer('hung', async (stack, server) => {
    const tracker = retryTracker();
    const third = (ctx.seconds * 1000) / 3;
    const total = 2 * third + HUNG_SECONDS * 1000;
    ctx.log(
      `(d) ${ctx.submitClients} clients for ${(total / 1000).toFixed(0)} s; PostgREST frozen (SIGSTOP) from ${(third / 1000).toFixed(1)} s for ${HUNG_SECONDS} s`,
    );
    const started = performance.now();
    const events: Events = {};
    const fault = timeline(events, [
      { wait: () => third, at: 'pausedAt', act: () => stack.pausePostgrest() },
      { wait: () => HUNG_SECONDS * 1000, act: () => stack.resumePostgrest(), done: 'resumedAt' },
    ]);
    const samples = await visitors(ctx, { until: () => started + total, origin: server.origin, phase: 'd', tracker });
    await fault;
    const ended = performance.now();
    const store = reconcile('d', await stack.query<RequestRow>(REQUEST_ROWS), tracker.accepted, tracker.failed);
    const d = hungFigures(ctx, { samples, events, started, ended, third }, server, store);
    checkHung(ctx, d);
    checkStore(ctx, 'd', store, tracker);
    return d;
  });
}
