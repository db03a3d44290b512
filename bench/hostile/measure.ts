/**
 * npm run bench -- hostile: hostile traffic against the production build, with the figures
 * the tests do not assert: the server's RSS and answer time for a 300 MB webhook post, and the files
 * 1,000 random /studio paths add. Its other rows check the status of every other probe (replays,
 * headers, crafted action calls, emails) against what the build is designed to answer (probes.ts).
 * Runs `next start` on the build in NEXT_DIST_DIR (default .next) on a free loopback port with a
 * throwaway store; run it on an older build to get that build's figures. A 5xx or a server that dies
 * is a problem: the run fails.
 *
 *   STUDIO_PATHS   how many random /studio paths (default 1000)
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { startAppServer } from '../../testkit/app-server.ts';
import { APP_ROOT } from '../../testkit/paths.ts';
import { memory, sleep } from '../../testkit/processes.ts';
import { withTempDir } from '../lib/temp-dir.ts';
import type { Report } from '../report.ts';
import { bigPost, send } from './http.ts';
import { bigPosts, MB, type BigPostProbe } from './probes.ts';
import { actionRow, emailRow, headersRow, HTTP, logRow, replayRow, studioRow, tally, type Outcome, type Server } from './rows.ts';

const log = (line: string) => process.stderr.write(`[hostile] ${line}\n`);
const mib = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

/** A server of the build with its own empty store in `dataDir`. */
async function startServer(dataDir: string, secret: string): Promise<Server> {
  // The server's log, counted: what a flood of refused calls writes.
  let logLines = 0;
  const server = await startAppServer(
    { DATA_DIR: dataDir, SANITY_REVALIDATE_SECRET: secret, RATE_LIMIT_MAX: '100000' },
    { onLine: () => (logLines += 1) },
  );
  return { ...server, logLines: () => logLines };
}

/** On a fresh server, so one post's memory does not hide the next one's. */
async function bigPostRow(dataDir: string, secret: string, probe: BigPostProbe): Promise<Outcome & { alive: boolean }> {
  const server = await startServer(dataDir, secret);
  try {
    // Warm, then settled: the RSS before is the server's, not its first render's.
    await send(server.origin, { path: '/support' });
    await sleep(1000);
    const before = memory(server.pid).rssBytes;
    const answer = await bigPost(server, probe);
    await sleep(2000);
    const alive = server.running();
    const after = alive ? memory(server.pid).rssBytes : 0;
    const growth = Math.max(answer.peakRssBytes, after) - before;
    const answered = answer.ms === null ? 'no answer' : `${answer.status} after ${answer.ms.toFixed(0)} ms`;
    return {
      row: {
        measure: probe.name,
        client: HTTP,
        result: `${answered}; RSS ${mib(before)} before, peak ${mib(answer.peakRssBytes)}, ${alive ? `${mib(after)} 2 s after` : 'server dead'} (growth ${mib(growth)})`,
        target: `${probe.status}, server alive`,
        met: answer.status === probe.status && alive,
      },
      statuses: [answer.status],
      details: { ...answer, rssBeforeBytes: before, rssAfterBytes: after },
      alive,
    };
  } finally {
    await server.stop();
  }
}

export async function measure(): Promise<Report> {
  const distDir = path.resolve(APP_ROOT, process.env.NEXT_DIST_DIR || '.next');
  if (!existsSync(path.join(distDir, 'BUILD_ID')))
    throw new Error(`no production build in ${distDir}: run next build first (NEXT_DIST_DIR picks another build)`);
  const secret = randomBytes(16).toString('hex');
  const outcomes: Outcome[] = [];
  const problems: string[] = [];
  const checked = (done: Outcome, alive: boolean) => {
    outcomes.push(done);
    const fives = done.statuses.filter((status) => status >= 500);
    if (fives.length > 0) problems.push(`${done.row.measure}: ${tally(fives)}`);
    if (!alive) problems.push(`the server died during "${done.row.measure}"`);
    return alive;
  };

  await withTempDir('hostile', async (dir) => {
    for (const [i, probe] of (await bigPosts()).entries()) {
      log(probe.name);
      const { alive, ...done } = await bigPostRow(path.join(dir, `big-post-${i}`), secret, probe);
      checked(done, alive);
    }
    const server = await startServer(path.join(dir, 'shared'), secret);
    try {
      for (const [name, row] of [
        ['logs', logRow],
        ['replay', (s: Server) => replayRow(s, secret)],
        ['studio', (s: Server) => studioRow(s, distDir)],
        ['headers', headersRow],
        ['actions', actionRow],
        ['emails', emailRow],
      ] as const) {
        log(name);
        // A dead server answers nothing: the probes after it would only repeat that.
        if (!checked(await row(server), server.running())) break;
      }
    } finally {
      await server.stop();
    }
  });

  return {
    rows: outcomes.map(({ row }) => row),
    notes: [
      `the build in ${path.relative(APP_ROOT, distDir)}; each 300 MB post on a fresh server, its RSS that of the next start process (sampled every 25 ms)`,
    ],
    details: { distDir, outcomes: outcomes.map(({ row, details }) => ({ measure: row.measure, details })) },
    problems,
  };
}
