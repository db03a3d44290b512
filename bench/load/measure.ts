#!/usr/bin/env node
/**
 * npm run load — a bounded load test of the support form on loopback, against an existing production
 * build (it builds nothing): `next build` first, or point NEXT_DIST_DIR at a build.
 *
 *   (a) submit   20 clients post the support form for LOAD_SECONDS, exactly as a browser without
 *                JavaScript does (multipart form POST with React's $ACTION_ fields) → accepted/s, p50/p99,
 *                errors; after the server stops, the rows in its PGlite store must be the accepted ones.
 *   (b) mixed    50 clients GET / and 50 clients post the form, at once, for LOAD_SECONDS → 0 errors, 0 lost.
 *   (c) faults   a second server on the hosted backend (the local Supabase stand-in: PostgREST over
 *                Postgres, testkit/postgrest-harness.ts); PostgREST is stopped for the middle third
 *                of the run and started again: visitors get the failure message, the server stays up, no
 *                row is half-written or lost, and submissions succeed again without a restart.
 *   (d) hung     the same, but PostgREST frozen with SIGSTOP for 20 s (connections taken, never answered);
 *   (e) killed   the embedded server killed with SIGKILL halfway and started again on its DATA_DIR;
 *                in (d) and (e) visitors send a failed form again until it is accepted (scripts/lib/load-faults.mjs).
 * Every phase reports lost (acknowledged but not stored) and doubled (stored twice): both must be 0.
 *
 * Every server runs on a free 127.0.0.1 port with a fresh DATA_DIR in a temp dir and a high rate limit;
 * all of it is stopped and removed at the end. Prints a table and writes bench/load-report.json.
 * Exits 1 when an invariant fails (errors in a/b, a lost row, the fault phase not behaving).
 *
 *   NEXT_DIST_DIR        the build to serve (default .next)
 *   LOAD_SECONDS         length of each phase (default 60); LOAD_SECONDS=5 for a quick run
 *   LOAD_PHASES          which phases, e.g. "a,c" (default a,b,c,d,e)
 *   LOAD_SUBMIT_CLIENTS  clients of (a), (c), (d) and (e) (default 20)
 *   LOAD_MIXED_CLIENTS   clients per kind in (b) (default 50)
 *   LOAD_TIMEOUT_MS      per-request timeout (default 30000)
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { startAppServer } from '../testkit/app-server.ts';
import { APP_ROOT as ROOT } from '../testkit/paths.ts';
import { sleep } from '../testkit/processes.ts';

import { hungPhase, killPhase, timeline, withHostedServer } from './lib/load-faults.mjs';
import { getPage, readPglite, reconcile, REQUEST_ROWS, run, submit, summarize, visitorFields } from './lib/load-measure.mjs';
import { envInt, table } from './lib/report.ts';

const REPORT = path.join(ROOT, 'bench', 'load-report.json');

const DIST_DIR = process.env.NEXT_DIST_DIR || '.next';
const SECONDS = envInt('LOAD_SECONDS', 60);
const SUBMIT_CLIENTS = envInt('LOAD_SUBMIT_CLIENTS', 20);
const MIXED_CLIENTS = envInt('LOAD_MIXED_CLIENTS', 50);
const TIMEOUT_MS = envInt('LOAD_TIMEOUT_MS', 30_000);
const PHASES = new Set((process.env.LOAD_PHASES || 'a,b,c,d,e').split(',').map((phase) => phase.trim()));

/** How long a restarted PostgREST may still refuse requests (its database connection comes up after /ready). */
const SETTLE_MS = 2_000;

const log = (...args) => console.log(`[load ${new Date().toISOString().slice(11, 19)}]`, ...args);

// ---------------------------------------------------------------------------------------------------
// Phases

let sequence = 0;
const submissionTracker = () => ({ accepted: new Set(), failed: new Set() });

function submitter(agent, origin, phase, tracker) {
  return async () => {
    const id = ++sequence;
    const result = await submit(agent, origin, visitorFields(phase, id), TIMEOUT_MS);
    if (result.outcome === 'accepted') tracker.accepted.add(id);
    else if (result.outcome === 'failed') tracker.failed.add(id);
    return result;
  };
}

async function embeddedPhases(report, failures) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'load-embedded-'));
  const server = await startAppServer({ DATA_DIR: dataDir });
  const trackers = { a: submissionTracker(), b: submissionTracker() };
  try {
    // The first write after a start, measured on its own: the store opened while the server started.
    const first = await submitter(undefined, server.origin, 'w', (trackers.w = submissionTracker()))();
    report.firstWriteMs = Math.round(first.ms);
    log(`first write after a start: ${report.firstWriteMs} ms, ${first.outcome}`);

    if (PHASES.has('a')) {
      log(`(a) ${SUBMIT_CLIENTS} clients submitting for ${SECONDS} s`);
      const agent = new http.Agent({ keepAlive: true, maxSockets: SUBMIT_CLIENTS });
      const samples = await run(SUBMIT_CLIENTS, SECONDS, submitter(agent, server.origin, 'a', trackers.a));
      agent.destroy();
      report.phases.a = { clients: SUBMIT_CLIENTS, seconds: SECONDS, submit: summarize(samples, SECONDS) };
    }
    if (PHASES.has('b')) {
      log(`(b) ${MIXED_CLIENTS} clients on GET / and ${MIXED_CLIENTS} submitting, for ${SECONDS} s`);
      const pageAgent = new http.Agent({ keepAlive: true, maxSockets: MIXED_CLIENTS });
      const formAgent = new http.Agent({ keepAlive: true, maxSockets: MIXED_CLIENTS });
      const [pages, submits] = await Promise.all([
        run(MIXED_CLIENTS, SECONDS, () => getPage(pageAgent, `${server.origin}/`)),
        run(MIXED_CLIENTS, SECONDS, submitter(formAgent, server.origin, 'b', trackers.b)),
      ]);
      pageAgent.destroy();
      formAgent.destroy();
      report.phases.b = {
        clients: { page: MIXED_CLIENTS, submit: MIXED_CLIENTS },
        seconds: SECONDS,
        page: summarize(pages, SECONDS),
        submit: summarize(submits, SECONDS),
      };
    }
    report.embeddedServerAlive = server.running();
  } finally {
    await server.stop();
  }
  // Counted from the store itself, after the server let go of it.
  const rows = await readPglite(dataDir);
  for (const phase of ['a', 'b']) {
    if (!report.phases[phase]) continue;
    const check = reconcile(phase, rows, trackers[phase].accepted, trackers[phase].failed);
    report.phases[phase].store = check;
    const summary = report.phases[phase].submit;
    if (summary.errors > 0 || summary.failed > 0)
      failures.push(`(${phase}) ${summary.errors} errors, ${summary.failed} failures shown to visitors`);
    if (check.lost || check.malformed || check.doubled)
      failures.push(`(${phase}) ${check.lost} lost, ${check.malformed} malformed, ${check.doubled} doubled rows`);
    if (check.stored !== check.accepted) failures.push(`(${phase}) ${check.stored} rows stored but ${check.accepted} accepted`);
  }
  if (report.phases.b?.page.errors) failures.push(`(b) ${report.phases.b.page.errors} errors on GET /`);
  await rm(dataDir, { recursive: true, force: true });
}

/** (c)'s run: clients submitting and a visitor reading pages while PostgREST is stopped for the middle third. */
async function outageRun(stack, server, tracker, warm) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: SUBMIT_CLIENTS });
  const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  const events = {};
  const third = (SECONDS * 1000) / 3;
  const faults = timeline(events, [
    { wait: () => third, at: 'stopAt', act: () => stack.stopPostgrest(), done: 'stopped' },
    { wait: () => third - (events.stopped - events.stopAt), at: 'startAt', act: () => stack.startPostgrest(), done: 'started' },
  ]);
  // A visitor reading pages meanwhile: the server must stay up through the outage.
  const probes = run(1, SECONDS, async () => {
    const answer = await getPage(probeAgent, `${server.origin}/`);
    await sleep(250);
    return answer;
  });
  // The warm-up submission counts too: it is a row in the database.
  const samples = [{ ...warm, start: 0, at: 0 }, ...(await run(SUBMIT_CLIENTS, SECONDS, submitter(agent, server.origin, 'c', tracker)))];
  const ended = performance.now();
  await faults;
  const pageSamples = await probes;
  agent.destroy();
  probeAgent.destroy();
  return { samples, pageSamples, events, started, ended };
}

/**
 * Windows by when each request ran: one that overlapped a stop or start of PostgREST is "switch" (its
 * insert may have run before the switch and its page after it).
 */
function outageWindows({ samples, events, started, ended }) {
  const windowOf = (sample) =>
    sample.at < events.stopAt
      ? 'before'
      : sample.start > events.stopped && sample.at < events.startAt
        ? 'down'
        : sample.start > events.started
          ? 'after'
          : 'switch';
  const lengths = { before: events.stopAt - started, down: events.startAt - events.stopped, after: ended - events.started, switch: null };
  const windows = {};
  for (const [name, length] of Object.entries(lengths)) {
    const inWindow = samples.filter((sample) => windowOf(sample) === name);
    windows[name] = summarize(inWindow, length === null ? null : Math.max(length, 1) / 1000);
  }
  return { windowOf, windows };
}

/** What (c) must show: the failure message while PostgREST is down, nothing else failing, nothing lost. */
function checkOutage(c, { samples, events }, windowOf, failures) {
  const { windows, store: check } = c;
  if (!c.serverAlive) failures.push('(c) the server died');
  if (c.pageProbe.errors) failures.push(`(c) ${c.pageProbe.errors} page loads failed during the run`);
  if (windows.before.errors || windows.before.failed)
    failures.push(`(c) ${windows.before.errors + windows.before.failed} submissions failed before the fault`);
  if (windows.down.accepted || !windows.down.failed)
    failures.push(`(c) while PostgREST was down: ${windows.down.accepted} accepted, ${windows.down.failed} failure messages`);
  if (windows.down.errors) failures.push(`(c) ${windows.down.errors} errors (not the failure message) while PostgREST was down`);
  if (!windows.after.accepted) failures.push('(c) nothing was accepted after the restart');
  if (windows.after.errors) failures.push(`(c) ${windows.after.errors} errors (not the failure message) after the restart`);
  // A restarted backend may refuse a few requests while its connections come up; after that, nothing may fail.
  const after = samples.filter((sample) => windowOf(sample) === 'after');
  c.failuresAfterRestartStartedMsAfterIt = after
    .filter((sample) => sample.outcome !== 'accepted')
    .map((sample) => Math.round(sample.start - events.started));
  const late = after.filter((sample) => sample.start > events.started + SETTLE_MS && sample.outcome !== 'accepted').length;
  if (late) failures.push(`(c) ${late} submissions failed more than ${SETTLE_MS} ms after PostgREST was back`);
  if (check.lost || check.malformed || check.doubled)
    failures.push(`(c) ${check.lost} lost, ${check.malformed} malformed, ${check.doubled} doubled rows`);
  if (check.stored !== check.accepted + check.unacknowledged) failures.push('(c) stored rows do not add up');
  if (check.unacknowledged)
    log(`(c) note: ${check.unacknowledged} rows stored although the visitor was told it failed (answer lost at the switch)`);
}

async function faultPhase(report, failures) {
  await withHostedServer('hosted', async (stack, server) => {
    const tracker = submissionTracker();
    const warm = await submitter(undefined, server.origin, 'c', tracker)();
    if (warm.outcome !== 'accepted') failures.push(`(c) the hosted server did not accept a request before the fault: ${warm.outcome}`);
    log(
      `(c) ${SUBMIT_CLIENTS} clients submitting for ${SECONDS} s; PostgREST down from ${(SECONDS / 3).toFixed(1)} s to ${((2 * SECONDS) / 3).toFixed(1)} s`,
    );
    const outage = await outageRun(stack, server, tracker, warm);
    const { samples, events } = outage;
    const { windowOf, windows } = outageWindows(outage);
    const recovered = samples
      .filter((sample) => sample.at > events.started && sample.outcome === 'accepted')
      .map((sample) => sample.at)
      .sort((a, b) => a - b)[0];
    report.phases.c = {
      clients: SUBMIT_CLIENTS,
      seconds: SECONDS,
      postgrestDownSeconds: Math.round((events.startAt - events.stopped) / 100) / 10,
      restartSeconds: Math.round((events.started - events.startAt) / 100) / 10,
      firstSuccessAfterRestartMs: recovered ? Math.round(recovered - events.started) : null,
      submit: summarize(samples, SECONDS),
      windows,
      pageProbe: summarize(outage.pageSamples, SECONDS),
      serverAlive: server.running(),
      store: reconcile('c', await stack.query(REQUEST_ROWS), tracker.accepted, tracker.failed),
      // What the server logged about failed inserts (the backend's own words), newest last.
      serverLog: server
        .output()
        .split('\n')
        .filter((line) => /failed|error/i.test(line))
        .slice(-12),
    };
    checkOutage(report.phases.c, outage, windowOf, failures);
  });
}

// ---------------------------------------------------------------------------------------------------
// Report

/** The table: one row per phase (and per window of (c)). */
function phaseRows({ a, b, c, d, e }) {
  const line = (label, s, store) => [
    label,
    s.requests,
    s.accepted,
    s.acceptedPerSecond,
    s.failed,
    s.errors,
    s.p50,
    s.p99,
    s.max,
    store?.stored ?? '',
    store?.lost ?? '',
    store?.doubled ?? '',
    store?.malformed ?? '',
  ];
  const rows = [
    ['phase', 'requests', 'ok', 'ok/s', 'failed', 'errors', 'p50 ms', 'p99 ms', 'max ms', 'stored', 'lost', 'doubled', 'half-written'],
  ];
  if (a) rows.push(line(`(a) submit x${a.clients}`, a.submit, a.store));
  if (b) rows.push(line(`(b) GET / x${b.clients.page}`, b.page), line(`(b) submit x${b.clients.submit}`, b.submit, b.store));
  if (c) {
    rows.push(line(`(c) submit x${c.clients}, all`, c.submit, c.store));
    for (const name of ['before', 'down', 'after', 'switch']) rows.push(line(`    ${name}`, c.windows[name]));
    rows.push(line('(c) GET / probe', c.pageProbe));
  }
  if (d) rows.push(line(`(d) hung x${d.clients}, all`, d.submit, d.store), line(`    while hung ${d.hungSeconds} s`, d.whileHung));
  if (e) rows.push(line(`(e) killed x${e.clients}`, e.submit, e.store));
  return rows;
}

/** The fault phases' figures in words, under the table. */
function faultLines({ c, d, e }) {
  const lines = [];
  if (c) {
    lines.push(
      `(c) PostgREST down ${c.postgrestDownSeconds} s; restart took ${c.restartSeconds} s; first success ${c.firstSuccessAfterRestartMs} ms after it was up; ` +
        `server alive: ${c.serverAlive}; rows stored though the visitor saw a failure: ${c.store.unacknowledged}`,
    );
    if (c.failuresAfterRestartStartedMsAfterIt.length) {
      lines.push(
        `(c) failures after the restart, started this many ms after PostgREST was ready: ${c.failuresAfterRestartStartedMsAfterIt.join(', ')}`,
        `    the server logged: ${[...new Set(c.serverLog.filter((line) => line.includes('message:')).map((line) => line.trim()))].join(' | ')}`,
      );
    }
  }
  if (d) {
    lines.push(
      `(d) PostgREST frozen ${d.hungSeconds} s; deadline ${d.deadlineMs} ms; the failure reached visitors after p50 ${d.whileHung.p50} ms, max ${d.whileHung.max} ms ` +
        `(an ordinary answer before the fault: p50 ${d.before.p50} ms, p99 ${d.before.p99} ms); submissions sent again by their visitor: ${d.retried}; server alive: ${d.serverAlive}`,
    );
  }
  if (e) {
    lines.push(
      `(e) SIGKILL → ready again in ${e.restartMs} ms; first write after the restart ${e.firstWriteAfterRestartMs} ms; ` +
        `requests in flight at the kill: ${e.unansweredAtKill}; submissions sent again by their visitor: ${e.retried}`,
    );
  }
  return lines;
}

function print(report) {
  console.log(`\nLoad test, ${report.seconds} s per phase, build ${report.distDir}, ${report.machine}`);
  console.log(table(phaseRows(report.phases)));
  if (report.firstWriteMs !== undefined)
    console.log(`first write after a start (store opened at start, target ≤ 500 ms): ${report.firstWriteMs} ms`);
  for (const line of faultLines(report.phases)) console.log(line);
  const errorKinds = Object.entries(report.phases).flatMap(([phase, data]) =>
    ['submit', 'page'].flatMap((kind) =>
      Object.entries(data[kind]?.errorKinds ?? {}).map(([error, count]) => `(${phase}) ${kind}: ${error} x${count}`),
    ),
  );
  if (errorKinds.length) console.log(`errors: ${errorKinds.join('; ')}`);
}

// ---------------------------------------------------------------------------------------------------

if (!existsSync(path.join(ROOT, DIST_DIR, 'BUILD_ID'))) {
  console.error(`no production build in ${DIST_DIR}: run next build first (NEXT_DIST_DIR picks another build)`);
  process.exit(2);
}

const report = {
  date: new Date().toISOString(),
  distDir: DIST_DIR,
  seconds: SECONDS,
  machine: `${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  phases: {},
};
const failures = [];
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`${signal}: stopping`);
    process.exit(130);
  });
}

if (PHASES.has('a') || PHASES.has('b')) await embeddedPhases(report, failures);
if (PHASES.has('c')) await faultPhase(report, failures);
const faultContext = { clients: SUBMIT_CLIENTS, seconds: SECONDS, timeoutMs: TIMEOUT_MS, log, report, failures };
if (PHASES.has('d')) await hungPhase(faultContext);
if (PHASES.has('e')) await killPhase(faultContext);

report.failures = failures;
await mkdir(path.dirname(REPORT), { recursive: true });
await writeFile(REPORT, `${JSON.stringify(report, null, 2)}\n`);
print(report);
console.log(`\nreport: ${path.relative(ROOT, REPORT)}`);
if (failures.length) {
  console.error(`\nFAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('all invariants held: no errors, no lost, doubled or half-written rows, recovery without a restart');
