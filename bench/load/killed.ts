/**
 * (e) killed: the site's server (embedded store) killed with SIGKILL mid-run and started again on the
 * same DATA_DIR and port: nothing acknowledged is lost, no resubmission is stored twice.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startAppServer } from '../../testkit/app-server.ts';
import { freePort } from '../../testkit/processes.ts';
import { readPglite, reconcile, summarize, type StoreCheck, type Summary } from '../lib/load-measure.ts';
import type { LoadContext } from './context.ts';
import { checkStore, moment, retried, retryTracker, timeline, visitors, type Attempt, type Events } from './faults.ts';

export type KilledPhase = {
  clients: number;
  seconds: number;
  submit: Summary;
  restartMs: number;
  firstWriteAfterRestartMs: number | null;
  /** Requests under way when the server was killed, answered with a failure or not at all. */
  unansweredAtKill: number;
  retried: number;
  store: StoreCheck;
};

type Run = { samples: Attempt[]; events: Events; started: number; ended: number };

function killedFigures(ctx: LoadContext, { samples, events, started, ended }: Run, store: StoreCheck): KilledPhase {
  const [killedAt, readyAt] = [moment(events, 'killedAt'), moment(events, 'readyAt')];
  const firstAfter = samples
    .filter((sample) => sample.start >= readyAt && sample.outcome === 'accepted')
    .sort((a, b) => a.start - b.start)[0];
  return {
    clients: ctx.submitClients,
    seconds: Math.round((ended - started) / 100) / 10,
    submit: summarize(samples, (ended - started) / 1000),
    restartMs: Math.round(readyAt - killedAt),
    firstWriteAfterRestartMs: firstAfter ? Math.round(firstAfter.ms) : null,
    unansweredAtKill: samples.filter((sample) => sample.start < killedAt && sample.at >= killedAt && sample.outcome !== 'accepted').length,
    retried: retried(samples),
    store,
  };
}

/** (e): the server SIGKILLed halfway and restarted on the same DATA_DIR and port. */
export async function killPhase(ctx: LoadContext): Promise<KilledPhase> {
  const { seconds } = ctx;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'load-killed-'));
  const port = await freePort();
  let server = await startAppServer({ DATA_DIR: dataDir }, { port });
  try {
    const tracker = retryTracker();
    ctx.log(
      `(e) ${ctx.submitClients} clients for ${seconds} s; the server killed with SIGKILL at ${(seconds / 2).toFixed(1)} s and started again`,
    );
    const started = performance.now();
    const events: Events = {};
    const restart = async () => {
      await server.kill();
      server = await startAppServer({ DATA_DIR: dataDir }, { port });
    };
    const fault = timeline(events, [{ wait: () => (seconds * 1000) / 2, at: 'killedAt', act: restart, done: 'readyAt' }]);
    // Visitors keep coming for half the run after the restart, however long the restart takes.
    const until = () =>
      events.readyAt ? Math.max(started + seconds * 1000, events.readyAt + (seconds * 1000) / 2) : Number.POSITIVE_INFINITY;
    const samples = await visitors(ctx, { until, origin: server.origin, phase: 'e', tracker });
    await fault;
    const ended = performance.now();
    await server.stop();

    const store = reconcile('e', await readPglite(dataDir), tracker.accepted, tracker.failed);
    const e = killedFigures(ctx, { samples, events, started, ended }, store);
    if (e.firstWriteAfterRestartMs === null) ctx.problems.push('(e) nothing was accepted after the restart');
    checkStore(ctx, 'e', store, tracker);
    return e;
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
