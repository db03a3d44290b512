/**
 * npm run bench -- load: a bounded load test of the support form on loopback, against an existing
 * production build (it builds nothing): `next build` first, or point NEXT_DIST_DIR at a build.
 *
 *   (a) submit   20 clients post the support form (embedded.ts)
 *   (b) mixed    50 clients GET / and 50 clients post the form, at once
 *   (c) faults   PostgREST stopped for the middle third of the run and started again (outage.ts)
 *   (d) hung     PostgREST frozen with SIGSTOP for 20 s (hung.ts)
 *   (e) killed   the embedded server killed with SIGKILL halfway and started again (killed.ts)
 * Every phase reports lost (acknowledged but not stored) and doubled (stored twice): both must be 0;
 * those, errors in (a) and (b), and a fault phase not behaving are the report's problems.
 *
 * Every server runs on a free 127.0.0.1 port with a fresh DATA_DIR in a temp dir and a high rate limit;
 * all of it is stopped and removed at the end. Settings: context.ts.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { APP_ROOT } from '../../testkit/paths.ts';
import { stopOnSignals } from '../../testkit/processes.ts';
import type { Report } from '../report.ts';
import { loadContext } from './context.ts';
import { embeddedPhases } from './embedded.ts';
import { hungPhase } from './hung.ts';
import { killPhase } from './killed.ts';
import { outagePhase } from './outage.ts';
import { loadNotes, phaseRows, type Phases } from './rows.ts';

export async function measure(): Promise<Report> {
  const ctx = loadContext();
  if (!existsSync(path.join(APP_ROOT, ctx.distDir, 'BUILD_ID')))
    throw new Error(`no production build in ${ctx.distDir}: run next build first (NEXT_DIST_DIR picks another build)`);
  // Ctrl-C stops every server and stand-in this run started.
  stopOnSignals();

  const phases: Phases = {};
  const has = (phase: string) => ctx.phases.has(phase);
  const embedded = has('a') || has('b') ? await embeddedPhases(ctx) : undefined;
  if (embedded) Object.assign(phases, { a: embedded.a, b: embedded.b });
  if (has('c')) phases.c = await outagePhase(ctx);
  if (has('d')) phases.d = await hungPhase(ctx);
  if (has('e')) phases.e = await killPhase(ctx);

  return {
    rows: phaseRows(phases, embedded?.firstWriteMs),
    notes: loadNotes(ctx, phases),
    details: {
      distDir: ctx.distDir,
      seconds: ctx.seconds,
      clients: { submit: ctx.submitClients, mixed: ctx.mixedClients },
      timeoutMs: ctx.timeoutMs,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      firstWriteMs: embedded?.firstWriteMs,
      embeddedServerAlive: embedded?.serverAlive,
      phases,
    },
    problems: ctx.problems,
  };
}
