/**
 * The load test's phases on the embedded store (PGlite under a fresh DATA_DIR):
 *   (a) submit   `submitClients` clients post the support form for LOAD_SECONDS, exactly as a browser
 *                without JavaScript does → accepted/s, p50/p99, errors;
 *   (b) mixed    `mixedClients` clients GET / and as many post the form, at once;
 * then, after the server stopped, the rows in its store must be the accepted ones. Before them, the
 * first write after a start, on its own (the store is opened while the server starts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startAppServer } from '../../testkit/app-server.ts';
import {
  getPage,
  newTracker,
  readPglite,
  reconcile,
  run,
  summarize,
  type StoreCheck,
  type Summary,
  type Tracker,
} from '../lib/load-measure.ts';
import { agentFor, submitter, type LoadContext } from './context.ts';

export type SubmitPhase = { clients: number; seconds: number; submit: Summary; store?: StoreCheck };
export type MixedPhase = { clients: { page: number; submit: number }; seconds: number; page: Summary; submit: Summary; store?: StoreCheck };
export type EmbeddedResult = { firstWriteMs: number; serverAlive: boolean; a?: SubmitPhase; b?: MixedPhase };

async function submitPhase(ctx: LoadContext, origin: string, tracker: Tracker): Promise<SubmitPhase> {
  const { submitClients: clients, seconds } = ctx;
  ctx.log(`(a) ${clients} clients submitting for ${seconds} s`);
  const agent = agentFor(clients);
  const samples = await run(clients, seconds, submitter(ctx, agent, origin, 'a', tracker));
  agent.destroy();
  return { clients, seconds, submit: summarize(samples, seconds) };
}

async function mixedPhase(ctx: LoadContext, origin: string, tracker: Tracker): Promise<MixedPhase> {
  const { mixedClients: clients, seconds } = ctx;
  ctx.log(`(b) ${clients} clients on GET / and ${clients} submitting, for ${seconds} s`);
  const [pageAgent, formAgent] = [agentFor(clients), agentFor(clients)];
  const [pages, submits] = await Promise.all([
    run(clients, seconds, () => getPage(pageAgent, `${origin}/`)),
    run(clients, seconds, submitter(ctx, formAgent, origin, 'b', tracker)),
  ]);
  pageAgent.destroy();
  formAgent.destroy();
  return { clients: { page: clients, submit: clients }, seconds, page: summarize(pages, seconds), submit: summarize(submits, seconds) };
}

/** What (a) and (b) must show: no error, no failure, every accepted submission stored once and whole. */
function checkPhase(ctx: LoadContext, phase: string, { submit: summary, store: check }: SubmitPhase | MixedPhase) {
  if (summary.errors > 0 || summary.failed > 0)
    ctx.problems.push(`(${phase}) ${summary.errors} errors, ${summary.failed} failures shown to visitors`);
  if (!check) return;
  if (check.lost || check.malformed || check.doubled)
    ctx.problems.push(`(${phase}) ${check.lost} lost, ${check.malformed} malformed, ${check.doubled} doubled rows`);
  if (check.stored !== check.accepted) ctx.problems.push(`(${phase}) ${check.stored} rows stored but ${check.accepted} accepted`);
}

/** (a) and (b), as LOAD_PHASES asks, on one server. */
export async function embeddedPhases(ctx: LoadContext): Promise<EmbeddedResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'load-embedded-'));
  const server = await startAppServer({ DATA_DIR: dataDir });
  const trackers = { a: newTracker(), b: newTracker() };
  let result: EmbeddedResult;
  try {
    const first = await submitter(ctx, undefined, server.origin, 'w', newTracker())();
    const firstWriteMs = Math.round(first.ms);
    ctx.log(`first write after a start: ${firstWriteMs} ms, ${first.outcome}`);
    const a = ctx.phases.has('a') ? await submitPhase(ctx, server.origin, trackers.a) : undefined;
    const b = ctx.phases.has('b') ? await mixedPhase(ctx, server.origin, trackers.b) : undefined;
    result = { firstWriteMs, serverAlive: server.running(), a, b };
  } finally {
    await server.stop();
  }
  // Counted from the store itself, after the server let go of it.
  const rows = await readPglite(dataDir);
  for (const phase of ['a', 'b'] as const) {
    const data = result[phase];
    if (!data) continue;
    data.store = reconcile(phase, rows, trackers[phase].accepted, trackers[phase].failed);
    checkPhase(ctx, phase, data);
  }
  if (result.b?.page.errors) ctx.problems.push(`(b) ${result.b.page.errors} errors on GET /`);
  await rm(dataDir, { recursive: true, force: true });
  return result;
}
