// What npm run load (scripts/load.mjs) measures and checks: request samples, their summary, and the
// stored rows reconciled with what visitors were told (lost = acknowledged but not stored; doubled =
// stored more than once).
import http from 'node:http';

import { outcome, postForm } from '../../testkit/forms.ts';
import { readStore } from '../../testkit/store.ts';

/** One support request as a browser without JavaScript sends it: { outcome, ms }, never throws. */
export async function submit(agent, origin, fields, timeoutMs) {
  const answer = await postForm(origin, 'support', fields, { agent, timeoutMs });
  return { outcome: outcome(answer), ms: answer.ms };
}

/** GET `url` on `agent`: { outcome: 'ok' | 'error: …', ms }, never throws. */
export async function getPage(agent, url) {
  const started = performance.now();
  const status = await new Promise((resolve) =>
    http
      .get(url, { agent }, (response) => {
        let html = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (html += chunk));
        response.on('end', () => resolve(response.statusCode === 200 && html.includes('</html>') ? 'ok' : `HTTP ${response.statusCode}`));
        response.on('error', (error) => resolve(error.code ?? error.message));
      })
      .on('error', (error) => resolve(error.code ?? error.message)),
  );
  return { outcome: status === 'ok' ? 'ok' : `error: ${status}`, ms: performance.now() - started };
}

/** The visitor's fields for submission `id` of `phase`: every stored row can be checked against them. */
export const visitorFields = (phase, id) => ({
  email: `load.${phase}.${id}@example.com`,
  subject: `load ${phase} #${id}`,
  message: `Load test ${phase}, submission #${id}.\nThe app stopped working after the update; steps to reproduce follow.`,
});

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summarize(samples, seconds) {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const count = (predicate) => samples.filter(predicate).length;
  const errors = {};
  for (const { outcome } of samples) if (outcome.startsWith('error')) errors[outcome] = (errors[outcome] ?? 0) + 1;
  const round = (value) => (value === null ? null : Math.round(value * 10) / 10);
  return {
    requests: samples.length,
    accepted: count((sample) => sample.outcome === 'accepted' || sample.outcome === 'ok'),
    failed: count((sample) => sample.outcome === 'failed'),
    errors: count((sample) => sample.outcome.startsWith('error')),
    errorKinds: errors,
    perSecond: seconds ? round(samples.length / seconds) : null,
    acceptedPerSecond: seconds ? round(count((sample) => sample.outcome === 'accepted' || sample.outcome === 'ok') / seconds) : null,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? null),
  };
}

/** `clients` loops of `work` until the deadline; in-flight requests finish (bounded by the timeout). */
export async function run(clients, seconds, work) {
  const deadline = performance.now() + seconds * 1000;
  const samples = [];
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

/** Compares stored rows with the accepted submissions of one phase. */
export function reconcile(phase, rows, accepted, failed) {
  const byId = new Map();
  const malformed = [];
  for (const row of rows) {
    const id = /^load (\w+) #(\d+)$/.exec(row.subject);
    if (!id || id[1] !== phase) continue;
    const sent = visitorFields(phase, Number(id[2]));
    // Form encoding sends a textarea's line breaks as CRLF, in a browser and in FormData alike.
    const expected = { ...sent, message: sent.message.replace(/\n/g, '\r\n'), type: 'feedback', status: 'new' };
    const complete = Object.entries(expected).every(([column, value]) => row[column] === value) && row.id && row.created_at;
    if (!complete) malformed.push(row);
    byId.set(Number(id[2]), (byId.get(Number(id[2])) ?? 0) + 1);
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

/** The columns reconcile compares. */
export const REQUEST_ROWS = 'select id::text, email, subject, message, type, status, created_at::text from public.support_requests';

export const readPglite = (dataDir) => readStore(dataDir, REQUEST_ROWS);
