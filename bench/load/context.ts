/**
 * The load test's settings, read from the environment when a run starts, and what every phase shares:
 * the progress log and the problems a run collects (each makes the run fail).
 *
 *   NEXT_DIST_DIR        the build to serve (default .next)
 *   LOAD_SECONDS         length of each phase (default 60); LOAD_SECONDS=5 for a quick run
 *   LOAD_PHASES          which phases, e.g. "a,c" (default a,b,c,d,e)
 *   LOAD_SUBMIT_CLIENTS  clients of (a), (c), (d) and (e) (default 20)
 *   LOAD_MIXED_CLIENTS   clients per kind in (b) (default 50)
 *   LOAD_TIMEOUT_MS      per-request timeout (default 30000)
 */
import http from 'node:http';

import { envInt } from '../report.ts';
import { submit, visitorFields, type Tracker } from '../lib/load-measure.ts';

export type LoadContext = {
  distDir: string;
  seconds: number;
  submitClients: number;
  mixedClients: number;
  timeoutMs: number;
  phases: Set<string>;
  log: (message: string) => void;
  /** An invariant that did not hold (a lost row, an error): the run fails. */
  problems: string[];
};

export function loadContext(): LoadContext {
  return {
    distDir: process.env.NEXT_DIST_DIR || '.next',
    seconds: envInt('LOAD_SECONDS', 60),
    submitClients: envInt('LOAD_SUBMIT_CLIENTS', 20),
    mixedClients: envInt('LOAD_MIXED_CLIENTS', 50),
    timeoutMs: envInt('LOAD_TIMEOUT_MS', 30_000),
    phases: new Set((process.env.LOAD_PHASES || 'a,b,c,d,e').split(',').map((phase) => phase.trim())),
    log: (message) => console.error(`[load ${new Date().toISOString().slice(11, 19)}] ${message}`),
    problems: [],
  };
}

/** A keep-alive agent with one socket per client. */
export const agentFor = (clients: number) => new http.Agent({ keepAlive: true, maxSockets: clients });

// Numbers submissions across phases, so no two of a run share their text.
let sequence = 0;

/** One visitor's submission of `phase` per call, noted in `tracker` as accepted or failed. */
export function submitter(ctx: LoadContext, agent: http.Agent | undefined, origin: string, phase: string, tracker: Tracker) {
  return async () => {
    const id = ++sequence;
    const result = await submit(agent, origin, visitorFields(phase, id), ctx.timeoutMs);
    if (result.outcome === 'accepted') tracker.accepted.add(id);
    else if (result.outcome === 'failed') tracker.failed.add(id);
    return result;
  };
}
