/**
 * The rows `npm run bench -- hostile` measures on one shared server, in the order it runs them: each
 * sends its probes (probes.ts) and holds the answers to what the build is designed to give.
 */
import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

import type { AppServer } from '../../testkit/app-server.ts';
import { formControls, outcome, postForm } from '../../testkit/forms.ts';
import { APP_ROOT } from '../../testkit/paths.ts';
import { sleep } from '../../testkit/processes.ts';
import { seedMessage } from '../../testkit/seed-copy.ts';
import { envInt, type Row } from '../report.ts';
import { send, type Answer } from './http.ts';
import { actionCalls, headerProbes, INVISIBLE_IN_EMAIL, SECURITY_HEADERS, SIGNED_CALLS, WEBHOOK, type Probe } from './probes.ts';

export const FETCH = 'Node fetch';
/** testkit's postForm and bigPost send with node:http. */
export const HTTP = 'Node http';

export type Server = AppServer & { logLines: () => number };
/** A row, the raw answers behind it, and every status it saw (a 5xx among them is a problem). */
export type Outcome = { row: Row; statuses: number[]; details: unknown };

export const tally = (statuses: number[]) =>
  Object.entries(Object.groupBy(statuses, String))
    .map(([status, all]) => `${all?.length ?? 0}× ${status}`)
    .join(', ');
const statusOf = (answer: Answer) => (answer.error ? `no answer (${answer.error})` : String(answer.status));

async function filesUnder(dir: string) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const sizes = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (info) => info.size,
        () => 0,
      ),
    ),
  );
  return { count: files.length, bytes: sizes.reduce((sum, size) => sum + size, 0) };
}

export async function logRow(server: Server): Promise<Outcome> {
  const calls = 1000;
  const before = server.logLines();
  const started = performance.now();
  const statuses: number[] = [];
  for (let i = 0; i < calls; i += 1)
    statuses.push((await send(server.origin, { path: WEBHOOK, init: { method: 'POST', body: '{}' } })).status);
  await sleep(500);
  const seconds = (performance.now() - started) / 1000;
  const lines = server.logLines() - before;
  // lib/http/refusal-log.ts: the first refusal at once, then one summary line a minute.
  const allowed = 1 + Math.ceil(seconds / 60);
  return {
    row: {
      measure: `${calls} unsigned webhook calls`,
      client: FETCH,
      result: `${tally(statuses)}; ${lines} log ${lines === 1 ? 'line' : 'lines'} in ${seconds.toFixed(0)} s`,
      target: `401 each, <= ${allowed} log lines (one a minute)`,
      met: statuses.every((status) => status === 401) && lines <= allowed,
    },
    statuses,
    details: { calls, statuses: tally(statuses), logLines: lines, seconds },
  };
}

export async function replayRow(server: Server, secret: string): Promise<Outcome> {
  const payload = JSON.stringify({ _type: 'privacyPolicy', _id: 'privacyPolicy' });
  const results = [];
  for (const call of SIGNED_CALLS) {
    const signature = await encodeSignatureHeader(payload, call.signedAt(), secret);
    const init = { method: 'POST', headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: signature }, body: payload };
    // The same signed call again: a captured call replayed.
    const answers: Answer[] = [];
    for (let i = 0; i < call.statuses.length; i += 1) answers.push(await send(server.origin, { path: WEBHOOK, init }));
    results.push({ name: call.name, expected: call.statuses.join(' then '), answered: answers.map(statusOf).join(' then '), answers });
  }
  return {
    row: {
      measure: 'signed webhooks: fresh, replayed, stale, future',
      client: FETCH,
      result: results.map(({ name, answered }) => `${name} ${answered}`).join(', '),
      target: results.map(({ expected }) => expected).join(', '),
      met: results.every(({ expected, answered }) => expected === answered),
    },
    statuses: results.flatMap(({ answers }) => answers.map((answer) => answer.status)),
    details: results.map(({ name, expected, answered }) => ({ name, expected, answered })),
  };
}

export async function studioRow(server: Server, distDir: string): Promise<Outcome> {
  const count = envInt('STUDIO_PATHS', 1000);
  await send(server.origin, { path: '/studio' });
  const before = await filesUnder(distDir);
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1)
    statuses.push((await send(server.origin, { path: `/studio/${randomBytes(6).toString('hex')}` })).status);
  // Next writes what it renders after answering.
  await sleep(500);
  const after = await filesUnder(distDir);
  const added = { files: after.count - before.count, bytes: after.bytes - before.bytes };
  return {
    row: {
      measure: `${count} random /studio paths`,
      client: FETCH,
      result: `${tally(statuses)}; ${added.files} files, ${(added.bytes / 1024).toFixed(0)} KB added under ${path.relative(APP_ROOT, distDir)}`,
      target: '200 each, no file added',
      met: statuses.every((status) => status === 200) && added.files === 0,
    },
    statuses,
    details: { count, statuses: tally(statuses), added },
  };
}

/** Each probe sent in turn; `wrong` says which got another status than the one it was designed to get. */
async function sendAll(server: Server, probes: Probe[]) {
  const answers = [];
  for (const probe of probes) answers.push({ probe, answer: await send(server.origin, probe) });
  return {
    answers,
    wrong: answers
      .filter(({ probe, answer }) => answer.status !== probe.status)
      .map(({ probe, answer }) => `${probe.name} ${statusOf(answer)}, not ${probe.status}`),
    statuses: answers.map(({ answer }) => answer.status),
  };
}

export async function headersRow(server: Server): Promise<Outcome> {
  const { answers, wrong, statuses } = await sendAll(server, headerProbes(server.origin));
  const lacking = answers.flatMap(({ probe, answer }) => {
    const absent = SECURITY_HEADERS.filter((name) => !answer.headers?.has(name));
    if (absent.length === 0) return [];
    return [`${probe.name} ${statusOf(answer)} lacks ${absent.length === SECURITY_HEADERS.length ? 'all' : absent.join(', ')}`];
  });
  const count = answers.length;
  return {
    row: {
      measure: `security headers on ${count} responses`,
      client: FETCH,
      result: [
        `${count - lacking.length} of ${count} carry all five`,
        `${count - wrong.length} of ${count} statuses as designed`,
        ...lacking,
        ...wrong,
      ].join('; '),
      target: 'all five on each, each status as designed',
      met: lacking.length === 0 && wrong.length === 0,
    },
    statuses,
    details: answers.map(({ probe, answer }) => ({
      name: probe.name,
      expected: probe.status,
      status: statusOf(answer),
      headers: Object.fromEntries(SECURITY_HEADERS.map((name) => [name, answer.headers?.get(name) ?? null])),
    })),
  };
}

export async function actionRow(server: Server): Promise<Outcome> {
  const bound = (await formControls(server.origin)).find(([name]) => /^\$ACTION_\d+:0$/.test(name));
  if (!bound) throw new Error('no bound action field in the support form: the probe cannot name the action');
  const { id } = JSON.parse(bound[1]) as { id: string };
  const probes = actionCalls(server.origin, id);
  const { answers, wrong, statuses } = await sendAll(server, probes);
  return {
    row: {
      measure: `${probes.length} crafted action calls`,
      client: FETCH,
      result: answers.map(({ probe, answer }) => `${probe.name} ${statusOf(answer)}`).join(', '),
      target: `${probes.map((probe) => probe.status).join(', ')} in that order`,
      met: wrong.length === 0,
    },
    statuses,
    details: answers.map(({ probe, answer }) => ({ name: probe.name, expected: probe.status, status: statusOf(answer) })),
  };
}

export async function emailRow(server: Server): Promise<Outcome> {
  const refusal = seedMessage({ code: 'invisibleEmail' });
  const results = [];
  for (const { name, character } of INVISIBLE_IN_EMAIL) {
    const answer = await postForm(server.origin, 'support', {
      email: `pro${character}be@example.com`,
      subject: `Probe ${name}`,
      message: 'Probe.',
    });
    const said = outcome(answer) === 'accepted' ? 'accepted' : answer.statusText === refusal ? 'refused' : `"${answer.statusText}"`;
    results.push({
      name,
      status: answer.status,
      answered: answer.error ? `no answer (${answer.error})` : `${answer.status} ${said}`,
      said,
    });
  }
  return {
    row: {
      measure: `${results.length} emails with an invisible character`,
      client: HTTP,
      result: results.map(({ name, answered }) => `${name} ${answered}`).join(', '),
      target: "200 refused, with the form's message, each",
      met: results.every(({ status, said }) => status === 200 && said === 'refused'),
    },
    statuses: results.map(({ status }) => status),
    details: results,
  };
}
