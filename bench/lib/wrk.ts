/**
 * Page views measured with wrk (Debian's /usr/bin/wrk: C, one event loop per thread), a client that
 * can reach what nginx serves here, where autocannon (one Node thread) stops near 3,000 requests/s.
 * wrk prints its results through a Lua `done` function as one JSON line; its CPU time comes from this
 * process's reaped-children times (/proc/self/stat), so a row can say when the client was the limit.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { TICKS_PER_SECOND } from '../../testkit/processes.ts';

import { round } from '../report.ts';

/** What Chrome sends. */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** Debian's package (apt-get install wrk), or WRK_BIN. */
export const WRK_BIN = process.env.WRK_BIN || '/usr/bin/wrk';

/** A wrk thread busier than this share of a core is the limit of what it measured. */
const CLIENT_BOUND_SHARE = 0.9;

const MARK = 'WRK_JSON ';
const DONE_SCRIPT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('${MARK}{"requests":%d,"durationUs":%d,"errors":%d,"non2xx":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(99)))
end
`;

export type WrkRun = {
  perSecond: number;
  p99Ms: number | null;
  /** socket errors, timeouts and answers other than 2xx/3xx */
  failed: number;
  seconds: number;
  /** wrk's CPU time over its threads' wall time: 1 is every thread busy all along */
  clientShare: number;
};

let script: string | undefined;
const doneScript = async () => {
  if (!script) {
    script = path.join(await mkdtemp(path.join(os.tmpdir(), 'wrk-')), 'done.lua');
    await writeFile(script, DONE_SCRIPT);
  }
  return script;
};

/** CPU seconds of this process's children that have exited and been waited for (cutime + cstime). */
async function reapedChildrenSeconds() {
  const stat = await readFile('/proc/self/stat', 'utf8');
  // The fields after the command name, which is in parentheses: state is field 3, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / TICKS_PER_SECOND;
}

/** GETs `url` for `seconds` over `connections` keep-alive connections shared by `threads` threads. */
export async function wrk(
  url: string,
  {
    threads = 2,
    connections,
    seconds,
    headers,
  }: { threads?: number; connections: number; seconds: number; headers: Record<string, string> },
): Promise<WrkRun> {
  if (!existsSync(WRK_BIN)) throw new Error(`wrk was not found at ${WRK_BIN}: apt-get install wrk (or set WRK_BIN)`);
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', '-s', await doneScript()];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  const cpuBefore = await reapedChildrenSeconds();
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(WRK_BIN, [...args, url], { encoding: 'utf8' }, (error, out, err) =>
      error ? reject(new Error(`wrk: ${err || error.message}`)) : resolve(out),
    ),
  );
  const cpu = (await reapedChildrenSeconds()) - cpuBefore;
  const line = stdout.split('\n').find((text) => text.startsWith(MARK));
  if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
  const result = JSON.parse(line.slice(MARK.length)) as {
    requests: number;
    durationUs: number;
    errors: number;
    non2xx: number;
    p99Us: number;
  };
  const wall = result.durationUs / 1e6;
  const failed = result.errors + result.non2xx;
  return {
    perSecond: round((result.requests - result.non2xx) / wall, 0)!,
    p99Ms: round(result.p99Us / 1000, 2),
    failed,
    seconds: round(wall, 2)!,
    clientShare: round(cpu / (wall * threads), 2)!,
  };
}

/** The round with the most requests per second. */
export const best = (runs: WrkRun[]) => runs.reduce((top, run) => (run.perSecond > top.perSecond ? run : top));

/** Whether wrk's threads were busy enough that wrk, not the server, set the rate. */
export const clientBound = (run: WrkRun) => run.clientShare >= CLIENT_BOUND_SHARE;
