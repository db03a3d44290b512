/**
 * What the load test's fault phases share: a fault's schedule run while requests keep coming, a server
 * on the hosted backend, and visitors who send a failed form again. Clients in (d) and (e) behave like
 * visitors: a submission that failed (or got no answer) is sent again, same text, until it is accepted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startAppServer, type AppServer } from '../../testkit/app-server.ts';
import { sleep } from '../../testkit/processes.ts';
import { supabaseEnv } from '../../testkit/postgrest-harness.ts';
import { startStack, type StackProcess } from '../../testkit/supabase-process.mjs';
import { submit, visitorFields, type Result, type Sample, type StoreCheck, type Tracker } from '../lib/load-measure.ts';
import { agentFor, type LoadContext } from './context.ts';

/** A visitor's pause before sending a failed form again. */
const RETRY_PAUSE_MS = 500;
/** How long retries may go on after the phase ends, so every started submission gets its answer. */
const RETRY_GRACE_MS = 60_000;

/** Submissions of a phase whose visitors retry: also those never accepted, even after retries. */
export type RetryTracker = Tracker & { gaveUp: Set<number> };
export const retryTracker = (): RetryTracker => ({ accepted: new Set(), failed: new Set(), gaveUp: new Set() });

/** A visitor's attempt: which submission, which try. */
export type Attempt = Sample<Result & { id: number; attempt: number }>;

/** A fault's moments (performance.now()), by the names its schedule gives them. */
export type Events = Record<string, number>;
type Step = { wait: () => number; at?: string; act: () => Promise<unknown>; done?: string };

/**
 * A fault's schedule, run while the visitors keep coming: each step waits `wait()` ms, notes when it
 * begins (`events[at]`), acts, and notes when that is done (`events[done]`).
 */
export async function timeline(events: Events, steps: Step[]) {
  for (const { wait, at, act, done } of steps) {
    await sleep(wait());
    if (at) events[at] = performance.now();
    await act();
    if (done) events[done] = performance.now();
  }
}

/** The moment `name` of a schedule that has run. */
export function moment(events: Events, name: string): number {
  const value = events[name];
  if (value === undefined) throw new Error(`the fault's schedule did not reach ${name}`);
  return value;
}

type Visitors = { until: () => number; origin: string; phase: string; tracker: RetryTracker };

/**
 * `ctx.submitClients` visitors on `origin` until `until()` (performance.now()): each sends a new
 * submission, and one that was not accepted again after a pause, until accepted or `until() +
 * RETRY_GRACE_MS`. Returns every attempt.
 */
export async function visitors(ctx: LoadContext, { until, origin, phase, tracker }: Visitors): Promise<Attempt[]> {
  const samples: Attempt[] = [];
  let sequence = 0;
  const agent = agentFor(ctx.submitClients);
  const attempt = async (id: number, attempt: number) => {
    const start = performance.now();
    const result = await submit(agent, origin, visitorFields(phase, id), ctx.timeoutMs);
    samples.push({ ...result, id, attempt, start, at: performance.now() });
    return result.outcome === 'accepted';
  };
  const visitor = async () => {
    while (performance.now() < until()) {
      const id = ++sequence;
      for (let tries = 1; !(await attempt(id, tries)); tries += 1) {
        tracker.failed.add(id);
        if (performance.now() > until() + RETRY_GRACE_MS) {
          tracker.gaveUp.add(id);
          break;
        }
        await sleep(RETRY_PAUSE_MS);
      }
      if (!tracker.gaveUp.has(id)) tracker.accepted.add(id);
    }
  };
  await Promise.all(Array.from({ length: ctx.submitClients }, visitor));
  agent.destroy();
  return samples;
}

/** Submissions whose visitor sent them more than once. */
export const retried = (samples: Attempt[]) => new Set(samples.filter((sample) => sample.attempt > 1).map((sample) => sample.id)).size;

/** The checks every fault phase with retrying visitors shares: what was stored against what visitors were told. */
export function checkStore(ctx: LoadContext, label: string, check: StoreCheck, tracker: RetryTracker) {
  if (check.lost || check.doubled || check.malformed)
    ctx.problems.push(`(${label}) ${check.lost} lost, ${check.doubled} doubled, ${check.malformed} malformed rows`);
  if (tracker.gaveUp.size) ctx.problems.push(`(${label}) ${tracker.gaveUp.size} submissions never accepted, even after retries`);
}

/**
 * A server on the hosted backend (the Supabase stand-in in its own process) with a fresh DATA_DIR, for
 * `run(stack, server)`; all of it stopped and removed afterwards.
 */
export async function withHostedServer<T>(name: string, run: (stack: StackProcess, server: AppServer) => Promise<T>): Promise<T> {
  const stack = await startStack();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `load-${name}-`));
  let server: AppServer | undefined;
  try {
    server = await startAppServer({
      DATA_DIR: dataDir,
      ...supabaseEnv(stack),
    });
    return await run(stack, server);
  } finally {
    await server?.stop();
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
