/** The load test's phases as report rows (one per phase, and per window of (c)) and notes. */
import type { StoreCheck, Summary } from '../lib/load-measure.ts';
import type { Row } from '../report.ts';
import type { LoadContext } from './context.ts';
import type { EmbeddedResult } from './embedded.ts';
import type { HungPhase } from './hung.ts';
import type { KilledPhase } from './killed.ts';
import type { OutagePhase } from './outage.ts';

export type Phases = { a?: EmbeddedResult['a']; b?: EmbeddedResult['b']; c?: OutagePhase; d?: HungPhase; e?: KilledPhase };

const CLIENT = 'Node http (the form posted as a browser without JavaScript)';
/** The first write's target: the store is opened while the server starts, not on the first request. */
const FIRST_WRITE_MS = 500;

const counts = (s: Summary) =>
  `${s.requests} requests, ${s.accepted} ok (${s.acceptedPerSecond}/s), ${s.failed} failed, ${s.errors} errors; p50/p99/max ${s.p50}/${s.p99}/${s.max} ms`;

/** A row of requests; with the store's reconciliation, held to lost = 0 and doubled = 0. */
function row(measure: string, s: Summary, store?: StoreCheck, client = CLIENT): Row {
  if (!store) return { measure, client, result: counts(s) };
  return {
    measure,
    client,
    result: `${counts(s)}; stored ${store.stored}, lost ${store.lost}, doubled ${store.doubled}, half-written ${store.malformed}`,
    target: 'lost = 0, doubled = 0',
    met: store.lost === 0 && store.doubled === 0,
  };
}

export function phaseRows({ a, b, c, d, e }: Phases, firstWriteMs?: number): Row[] {
  const rows: Row[] = [];
  if (firstWriteMs !== undefined)
    rows.push({
      measure: 'first write after a start',
      client: CLIENT,
      result: `${firstWriteMs} ms`,
      target: `<= ${FIRST_WRITE_MS} ms`,
      met: firstWriteMs <= FIRST_WRITE_MS,
    });
  if (a) rows.push(row(`(a) submit x${a.clients}`, a.submit, a.store));
  if (b)
    rows.push(
      row(`(b) GET / x${b.clients.page}`, b.page, undefined, 'Node http'),
      row(`(b) submit x${b.clients.submit}`, b.submit, b.store),
    );
  if (c) {
    rows.push(row(`(c) PostgREST stopped, submit x${c.clients}, all`, c.submit, c.store));
    for (const name of ['before', 'down', 'after', 'switch'] as const) rows.push(row(`    ${name}`, c.windows[name]));
    rows.push(row('(c) GET / probe', c.pageProbe, undefined, 'Node http'));
  }
  if (d) {
    rows.push(row(`(d) PostgREST hung, x${d.clients}, all`, d.submit, d.store), {
      ...row(`    while hung ${d.hungSeconds} s`, d.whileHung),
      target: `max <= ${d.allowedMs} ms`,
      met: (d.whileHung.max ?? 0) <= d.allowedMs,
    });
  }
  if (e) rows.push(row(`(e) server SIGKILLed, x${e.clients}`, e.submit, e.store));
  return rows;
}

/** The fault phases' figures in words. */
function faultNotes({ c, d, e }: Phases): string[] {
  const notes: string[] = [];
  if (c) {
    notes.push(
      `(c) PostgREST down ${c.postgrestDownSeconds} s; restart took ${c.restartSeconds} s; first success ${c.firstSuccessAfterRestartMs} ms after it was up; ` +
        `server alive: ${c.serverAlive}; rows stored though the visitor saw a failure: ${c.store.unacknowledged}`,
    );
    if (c.failuresAfterRestartStartedMsAfterIt.length) {
      const said = new Set(c.serverLog.filter((line) => line.includes('message:')).map((line) => line.trim()));
      notes.push(
        `(c) failures after the restart, started this many ms after PostgREST was ready: ${c.failuresAfterRestartStartedMsAfterIt.join(', ')}`,
        `    the server logged: ${[...said].join(' | ')}`,
      );
    }
  }
  if (d) {
    notes.push(
      `(d) PostgREST frozen ${d.hungSeconds} s; deadline ${d.deadlineMs} ms; the failure reached visitors after p50 ${d.whileHung.p50} ms, max ${d.whileHung.max} ms ` +
        `(an ordinary answer before the fault: p50 ${d.before.p50} ms, p99 ${d.before.p99} ms); submissions sent again by their visitor: ${d.retried}; server alive: ${d.serverAlive}`,
    );
  }
  if (e) {
    notes.push(
      `(e) SIGKILL → ready again in ${e.restartMs} ms; first write after the restart ${e.firstWriteAfterRestartMs} ms; ` +
        `requests in flight at the kill: ${e.unansweredAtKill}; submissions sent again by their visitor: ${e.retried}`,
    );
  }
  return notes;
}

/** Each kind of error per phase and request kind. */
function errorNote(phases: Phases): string[] {
  const kinds = Object.entries(phases).flatMap(([phase, data]: [string, Partial<Record<'submit' | 'page', Summary>>]) =>
    (['submit', 'page'] as const).flatMap((kind) =>
      Object.entries(data[kind]?.errorKinds ?? {}).map(([error, count]) => `(${phase}) ${kind}: ${error} x${count}`),
    ),
  );
  return kinds.length ? [`errors: ${kinds.join('; ')}`] : [];
}

export function loadNotes(ctx: LoadContext, phases: Phases): string[] {
  return [
    `${ctx.seconds} s per phase (LOAD_SECONDS), phases ${[...ctx.phases].join(',')} (LOAD_PHASES), build ${ctx.distDir}; ` +
      `${ctx.submitClients} submitting clients (LOAD_SUBMIT_CLIENTS), ${ctx.mixedClients} per kind in (b) (LOAD_MIXED_CLIENTS), timeout ${ctx.timeoutMs} ms`,
    '(a) submit; (b) GET / and submit at once; (c) PostgREST stopped for the middle third; (d) PostgREST frozen (SIGSTOP); (e) the server SIGKILLed and restarted. ' +
      'In (d) and (e) visitors send a failed form again until it is accepted; lost = acknowledged but not stored, doubled = stored twice.',
    ...faultNotes(phases),
    ...errorNote(phases),
    ...(ctx.problems.length ? [] : ['all invariants held: no errors, no lost, doubled or half-written rows, recovery without a restart']),
  ];
}
