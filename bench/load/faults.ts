// The fault phases of npm run load (scripts/load.mjs):
//   (d) hung     the hosted backend's PostgREST frozen with SIGSTOP for 20 s (it takes connections and
//                never answers), then SIGCONT: visitors hear the failure at the store's deadline, the
//                held inserts commit late, and each visitor's retry is recognised as the same request.
//   (e) killed   the site's server (embedded store) killed with SIGKILL mid-run and started again on the
//                same DATA_DIR and port: nothing acknowledged is lost, no resubmission is stored twice.
// Clients here behave like visitors: a submission that failed (or got no answer) is sent again, same
// text, until it is accepted. lost and doubled must stay 0.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { startAppServer } from '../../testkit/app-server.ts';
import { freePort, sleep } from '../../testkit/processes.ts';
import { startStack } from '../../testkit/supabase-process.mjs';

import { readPglite, reconcile, REQUEST_ROWS, submit, summarize, visitorFields } from './load-measure.mjs';

/** A visitor's pause before sending a failed form again. */
const RETRY_PAUSE_MS = 500;
/** How long retries may go on after the phase ends, so every started submission gets its answer. */
const RETRY_GRACE_MS = 60_000;
/** The site's default deadline (lib/env/server.ts storeTimeoutMs); the phases run with it. */
const DEFAULT_DEADLINE_MS = 10_000;
export const HUNG_SECONDS = 20;

/**
 * `clients` visitors until `until()` (performance.now()): each sends a new submission, and one that was
 * not accepted again after a pause, until accepted or `until() + RETRY_GRACE_MS`. Returns every attempt.
 */
async function visitors({ clients, until, origin, phase, tracker, timeoutMs }) {
  const samples = [];
  let sequence = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until()) {
        const id = ++sequence;
        for (let attempt = 1; ; attempt += 1) {
          const start = performance.now();
          const result = await submit(agent, origin(), visitorFields(phase, id), timeoutMs);
          samples.push({ ...result, id, attempt, start, at: performance.now() });
          if (result.outcome === 'accepted') {
            tracker.accepted.add(id);
            break;
          }
          tracker.failed.add(id);
          if (performance.now() > until() + RETRY_GRACE_MS) {
            tracker.gaveUp.add(id);
            break;
          }
          await sleep(RETRY_PAUSE_MS);
        }
      }
    }),
  );
  agent.destroy();
  return samples;
}

/**
 * A fault's schedule, run while the visitors keep coming: each step waits `wait()` ms, notes when it
 * begins (`events[at]`), acts, and notes when that is done (`events[done]`).
 */
export async function timeline(events, steps) {
  for (const { wait, at, act, done } of steps) {
    await sleep(wait());
    if (at) events[at] = performance.now();
    await act();
    if (done) events[done] = performance.now();
  }
}

const newTracker = () => ({ accepted: new Set(), failed: new Set(), gaveUp: new Set() });

/** The checks every fault phase shares: what was stored against what visitors were told. */
function checkStore(label, check, tracker, failures) {
  if (check.lost || check.doubled || check.malformed) {
    failures.push(`(${label}) ${check.lost} lost, ${check.doubled} doubled, ${check.malformed} malformed rows`);
  }
  if (tracker.gaveUp.size) failures.push(`(${label}) ${tracker.gaveUp.size} submissions never accepted, even after retries`);
}

/**
 * A server on the hosted backend (the Supabase stand-in in its own process) with a fresh DATA_DIR, for
 * `run(stack, server)`; all of it stopped and removed afterwards.
 */
export async function withHostedServer(name, run) {
  const stack = await startStack();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `load-${name}-`));
  let server;
  try {
    server = await startAppServer({
      DATA_DIR: dataDir,
      NEXT_PUBLIC_SUPABASE_URL: stack.url,
      NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: stack.publishableKey,
    });
    return await run(stack, server);
  } finally {
    await server?.stop();
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** (d)'s figures from its samples, and what they must show. */
function hungReport({ samples, events, started, ended, third, check, tracker, server, clients }, failures) {
  const whileHung = samples.filter((sample) => sample.start >= events.pausedAt && sample.at <= events.resumedAt);
  // What any answer costs on this machine under this load (rendering the page), before the fault.
  const before = summarize(
    samples.filter((sample) => sample.at < events.pausedAt && sample.outcome === 'accepted'),
    third / 1000,
  );
  const d = {
    clients,
    seconds: Math.round((ended - started) / 100) / 10,
    hungSeconds: HUNG_SECONDS,
    submit: summarize(samples, (ended - started) / 1000),
    whileHung: summarize(whileHung, HUNG_SECONDS),
    before,
    deadlineMs: DEFAULT_DEADLINE_MS,
    retried: new Set(samples.filter((sample) => sample.attempt > 1).map((sample) => sample.id)).size,
    serverAlive: server.running(),
    store: check,
  };
  if (!d.serverAlive) failures.push('(d) the server died');
  if (!d.whileHung.failed) failures.push('(d) no visitor was told of the failure while PostgREST hung');
  if (d.whileHung.accepted) failures.push(`(d) ${d.whileHung.accepted} accepted while PostgREST hung`);
  // The target is the deadline + 1 s; on a machine where an ordinary answer already takes longer, the
  // deadline may add no more than its own length to what an answer costs there.
  const allowed = DEFAULT_DEADLINE_MS + Math.max(1000, before.p99 ?? 0);
  if (d.whileHung.max > allowed)
    failures.push(`(d) a visitor waited ${d.whileHung.max} ms for the failure (allowed ${Math.round(allowed)} ms)`);
  if (d.submit.errors) failures.push(`(d) ${d.submit.errors} answers were neither success nor the failure message`);
  checkStore('d', check, tracker, failures);
  return d;
}

/** (d): PostgREST frozen for HUNG_SECONDS in the middle of the run. */
export async function hungPhase({ clients, seconds, timeoutMs, log, report, failures }) {
  await withHostedServer('hung', async (stack, server) => {
    const tracker = newTracker();
    const third = (seconds * 1000) / 3;
    const total = 2 * third + HUNG_SECONDS * 1000;
    log(
      `(d) ${clients} clients for ${(total / 1000).toFixed(0)} s; PostgREST frozen (SIGSTOP) from ${(third / 1000).toFixed(1)} s for ${HUNG_SECONDS} s`,
    );
    const started = performance.now();
    const events = {};
    const fault = timeline(events, [
      { wait: () => third, at: 'pausedAt', act: () => stack.pausePostgrest() },
      { wait: () => HUNG_SECONDS * 1000, act: () => stack.resumePostgrest(), done: 'resumedAt' },
    ]);
    const origin = server.origin;
    const samples = await visitors({ clients, until: () => started + total, origin: () => origin, phase: 'd', tracker, timeoutMs });
    await fault;
    const ended = performance.now();
    const check = reconcile('d', await stack.query(REQUEST_ROWS), tracker.accepted, tracker.failed);
    report.phases.d = hungReport({ samples, events, started, ended, third, check, tracker, server, clients }, failures);
  });
}

/** (e): the server SIGKILLed halfway and restarted on the same DATA_DIR and port. */
export async function killPhase({ clients, seconds, timeoutMs, log, report, failures }) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'load-killed-'));
  const port = await freePort();
  let server = await startAppServer({ DATA_DIR: dataDir }, { port });
  try {
    const tracker = newTracker();
    log(`(e) ${clients} clients for ${seconds} s; the server killed with SIGKILL at ${(seconds / 2).toFixed(1)} s and started again`);
    const started = performance.now();
    const events = {};
    const restart = async () => {
      await server.kill();
      server = await startAppServer({ DATA_DIR: dataDir }, { port });
    };
    const fault = timeline(events, [{ wait: () => (seconds * 1000) / 2, at: 'killedAt', act: restart, done: 'readyAt' }]);
    const origin = server.origin;
    // Visitors keep coming for half the run after the restart, however long the restart takes.
    const until = () =>
      events.readyAt ? Math.max(started + seconds * 1000, events.readyAt + (seconds * 1000) / 2) : Number.POSITIVE_INFINITY;
    const samples = await visitors({ clients, until, origin: () => origin, phase: 'e', tracker, timeoutMs });
    await fault;
    const ended = performance.now();
    await server.stop();

    const rows = await readPglite(dataDir);
    const check = reconcile('e', rows, tracker.accepted, tracker.failed);
    const firstAfter = samples
      .filter((sample) => sample.start >= events.readyAt && sample.outcome === 'accepted')
      .sort((a, b) => a.start - b.start)[0];
    const e = {
      clients,
      seconds: Math.round((ended - started) / 100) / 10,
      submit: summarize(samples, (ended - started) / 1000),
      restartMs: Math.round(events.readyAt - events.killedAt),
      firstWriteAfterRestartMs: firstAfter ? Math.round(firstAfter.ms) : null,
      unansweredAtKill: samples.filter(
        (sample) => sample.start < events.killedAt && sample.at >= events.killedAt && sample.outcome !== 'accepted',
      ).length,
      retried: new Set(samples.filter((sample) => sample.attempt > 1).map((sample) => sample.id)).size,
      store: check,
    };
    report.phases.e = e;
    if (!firstAfter) failures.push('(e) nothing was accepted after the restart');
    checkStore('e', check, tracker, failures);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
