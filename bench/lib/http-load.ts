/**
 * HTTP load for the measuring scripts, through autocannon (closed loop: each connection sends its next
 * request when the previous one is answered), and first-byte timing of single loads. Two servers
 * compared are measured in alternating rounds: the machine's speed drifts within a run (other
 * processes, heat), and short rounds taken in turn, the order flipped each round, meet the same drift.
 */
import http from 'node:http';
import { createRequire } from 'node:module';

import autocannon from 'autocannon';

import { formControls } from '../../testkit/forms.ts';
import { median, round } from '../report.ts';

export type LoadRun = { ok: number; refused: number; errors: number; seconds: number; p50Ms: number; p99Ms: number };

/** `connections` keep-alive connections for `seconds`; `accepted(status, body)` judges an answer (default: 2xx). */
async function cannon(options: autocannon.Options, accepted?: (status: number, body: string) => boolean): Promise<LoadRun> {
  let ok = 0;
  let refused = 0;
  const judge = accepted && ((status: number, body: string) => void (accepted(status, body) ? ok++ : refused++));
  const requests = options.requests?.map((request) => ({ ...request, onResponse: judge }));
  const result = await autocannon({ timeout: 30, ...options, requests });
  return {
    ok: judge ? ok : result['2xx'],
    refused: judge ? refused : result.non2xx,
    errors: result.errors,
    seconds: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

/** GET `url` as a browser asks for a page (gzip accepted). */
export const pageLoad = (url: string, connections: number, seconds: number) =>
  cannon({ url, connections, duration: seconds, headers: { accept: 'text/html', 'accept-encoding': 'gzip' } });

/** GET `url` with `headers`, counting as answered only the answers of `status` (a page's 200, a made-up path's 404). */
export const statusLoad = (url: string, status: number, headers: Record<string, string>, connections: number, seconds: number) =>
  cannon({ url, connections, duration: seconds, headers, requests: [{ method: 'GET' }] }, (answer) => answer === status);

/** Runs `measure(side)` for each side in each round, in turn, flipping the order each round; each side's runs. */
export async function alternate<Side extends string, Run>(rounds: number, sides: readonly Side[], measure: (side: Side) => Promise<Run>) {
  const runs = Object.fromEntries(sides.map((side) => [side, [] as Run[]])) as Record<Side, Run[]>;
  for (let turn = 0; turn < rounds; turn++) {
    for (const side of turn % 2 ? [...sides].reverse() : sides) runs[side].push(await measure(side));
  }
  return runs;
}

/** One result from a side's rounds: successes per second over all of them, the median round's p99. */
export function combine(runs: LoadRun[]) {
  const sum = (key: 'ok' | 'refused' | 'errors' | 'seconds') => runs.reduce((total, run) => total + run[key], 0);
  return {
    ok: sum('ok'),
    refused: sum('refused'),
    errors: sum('errors'),
    perSecond: round(sum('ok') / sum('seconds'))!,
    p99Ms: median(runs.map((run) => run.p99Ms)),
  };
}
export type Combined = ReturnType<typeof combine>;

/** Stands for the request's number in a template body. */
const SEQUENCE_MARK = '@@SEQ@@';

/**
 * What the page's script sends when a visitor with JavaScript presses Send: a POST with the action's
 * id in `Next-Action` and the arguments `[previousState, formData]` encoded by React's own
 * `encodeReply`, as multipart form data; answered with the action's result (RSC), not a page. The body
 * is split at SEQUENCE_MARK, so that each request gets its own subject: `${subjectPrefix}${n}`.
 */
async function actionTemplate(origin: string, subjectPrefix: string) {
  const controls = await formControls(origin, 'support');
  const value = (pattern: RegExp) => controls.find(([name]) => pattern.test(name))?.[1];
  const actionId = (JSON.parse(value(/^\$ACTION_\d+:0$/) ?? '{}') as { id?: unknown }).id;
  if (typeof actionId !== 'string') throw new Error('cannot find the support action id in the /support form');
  const previousState = (JSON.parse(value(/^\$ACTION_\d+:1$/) ?? '[]') as unknown[])[0] ?? { status: 'idle' };
  const { encodeReply } = createRequire(import.meta.url)('next/dist/compiled/react-server-dom-webpack/client.node.js') as {
    encodeReply: (value: unknown) => Promise<string | FormData>;
  };
  const fields = new FormData();
  for (const [name, control] of controls)
    if (!name.startsWith('$ACTION_') && !['email', 'subject', 'message'].includes(name)) fields.append(name, control);
  fields.append('email', `bench+${SEQUENCE_MARK}@example.com`);
  fields.append('subject', `${subjectPrefix}${SEQUENCE_MARK}`);
  fields.append('message', `Benchmark submission ${SEQUENCE_MARK}.`);
  const encoded = new Response(await encodeReply([previousState, fields]));
  // Asked without compression so that the answer can be read; Next would gzip the ~80-byte answer.
  const headers = {
    'content-type': encoded.headers.get('content-type')!,
    accept: 'text/x-component',
    'accept-encoding': 'identity',
    'next-action': actionId,
    origin,
  };
  return { headers, parts: (await encoded.text()).split(SEQUENCE_MARK) };
}

/** The action's answer when the form shows Sent!. */
const ACTION_SUCCESS = '"status":"success"';

/**
 * Support requests sent as fast as `connections` visitors with JavaScript can, to `origin`'s /support.
 * Every accepted request must become a row whose subject starts with `subjectPrefix`.
 */
export async function submissionLoad(origin: string, subjectPrefix: string, connections: number, seconds: number): Promise<LoadRun> {
  const { headers, parts } = await actionTemplate(origin, subjectPrefix);
  let sequence = 0;
  const setupRequest = (request: autocannon.Request) => ({ ...request, body: parts.join(String(++sequence)) });
  return cannon(
    { url: `${origin}/support`, connections, duration: seconds, requests: [{ method: 'POST', headers, setupRequest }] },
    (status, body) => status === 200 && body.includes(ACTION_SUCCESS),
  );
}

/**
 * Milliseconds from sending GET `url` on a new connection (a browser's first visit: no cache) to its
 * status line and headers; the body is read to its end before resolving, so loads never overlap.
 */
export function firstByteMs(url: string): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = { accept: 'text/html', 'accept-encoding': 'gzip, br' };
    const request = http.get(url, { agent: false, headers, timeout: 60_000 }, (response) => {
      const ms = round(performance.now() - started)!;
      response.resume();
      response.on('end', () => resolve({ ms, status: response.statusCode ?? 0 }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} within 60 s`)));
    request.on('error', reject);
  });
}
