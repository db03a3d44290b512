// What the write measurements (load, durability, quotas) share: request samples, their summary, and the
// stored rows reconciled with what visitors were told (lost = acknowledged but not stored; doubled =
// stored more than once).
import http from 'node:http';

import { outcome, postForm, type Outcome } from '../../testkit/forms.ts';
import { percentile } from '../../testkit/stats.ts';
import { readStore } from '../../testkit/store.ts';

/** A request's outcome: a form's (accepted, failed, error: …), or 'ok' for a page or a direct call. */
export type Result = { outcome: Outcome | 'ok'; ms: number };
/** A result with when its request started and ended (performance.now()). */
export type Sample<R extends Result = Result> = R & { start: number; at: number };

export type Summary = {
  requests: number;
  accepted: number;
  failed: number;
  errors: number;
  errorKinds: Record<string, number>;
  perSecond: number | null;
  acceptedPerSecond: number | null;
  p50: number | null;
  p99: number | null;
  max: number | null;
};

/** The visitor's submissions of one phase: which were accepted, which shown the failure. */
export type Tracker = { accepted: Set<number>; failed: Set<number> };
export const newTracker = (): Tracker => ({ accepted: new Set(), failed: new Set() });

/** One support request as a browser without JavaScript sends it; never throws. */
export async function submit(
  agent: http.Agent | undefined,
  origin: string,
  fields: Record<string, string>,
  timeoutMs?: number,
): Promise<Result> {
  const answer = await postForm(origin, 'support', fields, { agent, timeoutMs });
  return { outcome: outcome(answer), ms: answer.ms };
}

/** GET `url` on `agent`: ok for a whole page with status 200; never throws. */
export async function getPage(agent: http.Agent, url: string): Promise<Result> {
  const started = performance.now();
  const status = await new Promise<string>((resolve) =>
    http
      .get(url, { agent }, (response) => {
        let html = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (html += chunk));
        response.on('end', () => resolve(response.statusCode === 200 && html.includes('</html>') ? 'ok' : `HTTP ${response.statusCode}`));
        response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      })
      .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message)),
  );
  return { outcome: status === 'ok' ? 'ok' : `error: ${status}`, ms: performance.now() - started };
}

/** The visitor's fields for submission `id` of `phase`: every stored row can be checked against them. */
export const visitorFields = (phase: string, id: number) => ({
  email: `load.${phase}.${id}@example.com`,
  subject: `load ${phase} #${id}`,
  message: `Load test ${phase}, submission #${id}.\nThe app stopped working after the update; steps to reproduce follow.`,
});

const tenths = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
const isAccepted = (result: Result) => result.outcome === 'accepted' || result.outcome === 'ok';

/** Counts and latencies of `samples`; per second over `seconds` (none when null). */
export function summarize(samples: Result[], seconds: number | null): Summary {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const errorKinds: Record<string, number> = {};
  for (const { outcome } of samples) if (outcome.startsWith('error')) errorKinds[outcome] = (errorKinds[outcome] ?? 0) + 1;
  const accepted = samples.filter(isAccepted).length;
  return {
    requests: samples.length,
    accepted,
    failed: samples.filter((sample) => sample.outcome === 'failed').length,
    errors: samples.filter((sample) => sample.outcome.startsWith('error')).length,
    errorKinds,
    perSecond: seconds ? tenths(samples.length / seconds) : null,
    acceptedPerSecond: seconds ? tenths(accepted / seconds) : null,
    p50: tenths(percentile(sorted, 50)),
    p99: tenths(percentile(sorted, 99)),
    max: tenths(sorted.at(-1) ?? null),
  };
}

/** `clients` loops of `work` until the deadline; in-flight requests finish (bounded by the timeout). */
export async function run<R extends Result>(clients: number, seconds: number, work: (client: number) => Promise<R>): Promise<Sample<R>[]> {
  const deadline = performance.now() + seconds * 1000;
  const samples: Sample<R>[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < deadline) {
        const start = performance.now();
        samples.push({ ...(await work(client)), start, at: performance.now() });
      }
    }),
  );
  return samples;
}

/** The columns reconcile compares. */
export const REQUEST_ROWS = 'select id::text, email, subject, message, type, status, created_at::text from public.support_requests';
export type RequestRow = { id: string; email: string; subject: string; message: string; type: string; status: string; created_at: string };

export const readPglite = (dataDir: string) => readStore<RequestRow>(dataDir, REQUEST_ROWS);

export type StoreCheck = ReturnType<typeof reconcile>;

/** Compares stored rows with the accepted submissions of one phase. */
export function reconcile(phase: string, rows: RequestRow[], accepted: Set<number>, failed: Set<number>) {
  const byId = new Map<number, number>();
  const malformed: RequestRow[] = [];
  for (const row of rows) {
    const match = /^load (\w+) #(\d+)$/.exec(row.subject);
    if (!match || match[1] !== phase) continue;
    const id = Number(match[2]);
    const sent = visitorFields(phase, id);
    // Form encoding sends a textarea's line breaks as CRLF, in a browser and in FormData alike.
    const expected = { ...sent, message: sent.message.replace(/\n/g, '\r\n'), type: 'feedback', status: 'new' };
    const columns = Object.keys(expected) as (keyof typeof expected)[];
    if (!columns.every((column) => row[column] === expected[column]) || !row.id || !row.created_at) malformed.push(row);
    byId.set(id, (byId.get(id) ?? 0) + 1);
  }
  const lost = [...accepted].filter((id) => !byId.has(id));
  const doubled = [...byId].filter(([, count]) => count > 1).map(([id]) => id);
  // Stored although the visitor saw a failure: the insert committed but its answer was lost on the way.
  const unacknowledged = [...byId.keys()].filter((id) => !accepted.has(id));
  return {
    stored: [...byId.values()].reduce((sum, count) => sum + count, 0),
    accepted: accepted.size,
    lost: lost.length,
    doubled: doubled.length,
    malformed: malformed.length,
    unacknowledged: unacknowledged.length,
    unacknowledgedOfFailed: unacknowledged.filter((id) => failed.has(id)).length,
    examples: {
      lost: lost.slice(0, 5),
      doubled: doubled.slice(0, 5),
      malformed: malformed.slice(0, 3),
      unacknowledged: unacknowledged.slice(0, 5),
    },
  };
}
