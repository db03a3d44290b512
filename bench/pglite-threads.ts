/**
 * `npm run bench -- pglite-threads` — V8's abort under PGlite in two threads (nodejs/node#64500), with
 * PGlite as the app takes it (lib/store/pglite-core.mjs, which keeps every wasm-to-JS import on V8's
 * generic wrapper) and straight from the package. Each run is a child process (lib/pglite-churn.ts)
 * opening and closing in-memory databases in its main thread and a worker thread at once.
 *
 *   wrappers   wasm-to-JS wrappers V8 compiles (--print-wasm-stub-code) for one database per thread:
 *              every abort seen here freed one (Runtime_TierUpWasmToJSWrapper), so none means none to free
 *   aborts     processes V8 killed, of CHURN_RUNS of each kind (default 4; CHURN_CYCLES databases per
 *              thread, default 10; CHURN_PARALLEL at a time, default 2), alternating. About one run in
 *              ten aborts the package's way here, so a small count says little: the wrappers row is the
 *              one that can see its target.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { envInt, median, type Report, type Row } from './report.ts';

type Kind = 'app' | 'bare';
type Outcome = { kind: Kind; ms: number; died: string | null; wrappers: number };

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib', 'pglite-churn.ts');
const CLIENT = 'child Node processes (PGlite in-memory in the main thread and a worker thread)';
const KINDS: readonly Kind[] = ['bare', 'app'];
const WAY: Record<Kind, string> = { bare: 'PGlite from the package', app: 'PGlite as the app takes it' };
const log = (line: string) => process.stderr.write(`[pglite-threads] ${line}\n`);

function runChild(kind: Kind, cycles: number, v8Flags: string[] = []): Promise<Outcome> {
  const started = performance.now();
  const child = spawn(process.execPath, [...v8Flags, CHILD], {
    env: { ...process.env, CHURN_PGLITE: kind, CHURN_CYCLES: String(cycles) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let wrappers = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (wrappers += chunk.toString().split('kind: wasm-to-js').length - 1));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const cause = /Check failed: .*|Segmentation fault.*/.exec(stderr)?.[0] ?? stderr.trim().split('\n').at(-1) ?? '';
      const died = code === 0 ? null : `${signal ?? `exit ${code}`}: ${cause}`;
      resolve({ kind, ms: performance.now() - started, died, wrappers });
    });
  });
}

async function wrapperRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of KINDS) {
    const outcome = await runChild(kind, 1, ['--print-wasm-stub-code']);
    if (outcome.died) throw new Error(`the ${kind} wrapper count died: ${outcome.died}`);
    rows.push({
      measure: `wasm-to-JS wrappers compiled, ${WAY[kind]}`,
      client: `${CLIENT}, V8's --print-wasm-stub-code`,
      result: String(outcome.wrappers),
      ...(kind === 'app' ? { target: '0', met: outcome.wrappers === 0 } : {}),
    });
  }
  return rows;
}

async function abortRuns(runs: number, cycles: number, parallel: number): Promise<Outcome[]> {
  const queue = Array.from({ length: runs * KINDS.length }, (_, index) => KINDS[index % KINDS.length]!);
  const outcomes: Outcome[] = [];
  const next = async () => {
    for (let kind = queue.shift(); kind; kind = queue.shift()) {
      const outcome = await runChild(kind, cycles);
      log(`${kind}: ${outcome.died ?? 'ok'} (${(outcome.ms / 1000).toFixed(1)} s)`);
      outcomes.push(outcome);
    }
  };
  await Promise.all(Array.from({ length: parallel }, next));
  return outcomes;
}

function abortRow(kind: Kind, outcomes: Outcome[]): Row {
  const mine = outcomes.filter((outcome) => outcome.kind === kind);
  const seconds = median(mine.filter((outcome) => !outcome.died).map((outcome) => outcome.ms / 1000));
  return {
    measure: `processes aborted, ${WAY[kind]}`,
    client: CLIENT,
    result: `${mine.filter((outcome) => outcome.died).length} of ${mine.length}; a run that finished took a median ${seconds?.toFixed(1) ?? '-'} s`,
  };
}

export async function measure(): Promise<Report> {
  const runs = envInt('CHURN_RUNS', 4);
  const cycles = envInt('CHURN_CYCLES', 10);
  const parallel = envInt('CHURN_PARALLEL', 2);
  const wrappers = await wrapperRows();
  const outcomes = await abortRuns(runs, cycles, parallel);
  const causes = [...new Set(outcomes.flatMap((outcome) => (outcome.died ? [`${outcome.kind}: ${outcome.died}`] : [])))];
  return {
    rows: [...wrappers, ...KINDS.map((kind) => abortRow(kind, outcomes))],
    notes: [
      'wrappers: one database per thread; aborts: ' +
        `${runs} runs of each, ${cycles} databases per thread per run, ${parallel} at a time.`,
      ...(causes.length ? ['How they died:', ...causes.map((cause) => `  ${cause}`)] : []),
    ],
    details: { runs, cycles, parallel, wrappers, outcomes },
  };
}
