/**
 * (c) faults: a server on the hosted backend (the local Supabase stand-in: PostgREST over Postgres,
 * testkit/postgrest-harness.ts); PostgREST is stopped for the middle third of the run and started again:
 * visitors get the failure message, the server stays up, no row is half-written or lost, and submissions
 * succeed again without a restart.
 */
import type { AppServer } from '../../testkit/app-server.ts';
import { sleep } from '../../testkit/processes.ts';
import type { StackProcess } from '../../testkit/supabase-process.mjs';
import {
  getPage,
  newTracker,
  reconcile,
  REQUEST_ROWS,
  run,
  summarize,
  type RequestRow,
  type Result,
  type Sample,
  type StoreCheck,
  type Summary,
} from '../lib/load-measure.ts';
import { agentFor, submitter, type LoadContext } from './context.ts';
import { moment, timeline, withHostedServer, type Events } from './faults.ts';

/** How long a restarted PostgREST may still refuse requests (its database connection comes up after /ready). */
const SETTLE_MS = 2_000;

type Window = 'before' | 'down' | 'after' | 'switch';

export type OutagePhase = {
  clients: number;
  seconds: number;
  postgrestDownSeconds: number;
  restartSeconds: number;
  firstSuccessAfterRestartMs: number | null;
  submit: Summary;
  windows: Record<Window, Summary>;
  pageProbe: Summary;
  serverAlive: boolean;
  store: StoreCheck;
  /** What the server logged about failed inserts (the backend's own words), newest last. */
  serverLog: string[];
  failuresAfterRestartStartedMsAfterIt: number[];
};

type Outage = { samples: Sample[]; pageSamples: Sample[]; events: Events; started: number; ended: number };

/** (c)'s run: clients submitting and a visitor reading pages while PostgREST is stopped for the middle third. */
async function outageRun(
  ctx: LoadContext,
  stack: StackProcess,
  server: AppServer,
  warm: Result,
  submitOne: () => Promise<Result>,
): Promise<Outage> {
  const probeAgent = agentFor(1);
  const started = performance.now();
  const events: Events = {};
  const third = (ctx.seconds * 1000) / 3;
  const faults = timeline(events, [
    { wait: () => third, at: 'stopAt', act: () => stack.stopPostgrest(), done: 'stopped' },
    {
      wait: () => third - (moment(events, 'stopped') - moment(events, 'stopAt')),
      at: 'startAt',
      act: () => stack.startPostgrest(),
      done: 'started',
    },
  ]);
  // A visitor reading pages meanwhile: the server must stay up through the outage.
  const probes = run(1, ctx.seconds, async () => {
    const answer = await getPage(probeAgent, `${server.origin}/`);
    await sleep(250);
    return answer;
  });
  // The warm-up submission counts too: it is a row in the database.
  const samples = [{ ...warm, start: 0, at: 0 }, ...(await run(ctx.submitClients, ctx.seconds, submitOne))];
  const ended = performance.now();
  await faults;
  const pageSamples = await probes;
  probeAgent.destroy();
  return { samples, pageSamples, events, started, ended };
}

/**
 * The window a request ran in: one that overlapped a stop or start of PostgREST is "switch" (its insert
 * may have run before the switch and its page after it).
 */
function windowOf(events: Events, sample: Sample): Window {
  if (sample.at < moment(events, 'stopAt')) return 'before';
  if (sample.start > moment(events, 'stopped') && sample.at < moment(events, 'startAt')) return 'down';
  return sample.start > moment(events, 'started') ? 'after' : 'switch';
}

/** Each window's summary, per second over its length (none for "switch"). */
function outageWindows({ samples, events, started, ended }: Outage): Record<Window, Summary> {
  const lengths: Record<Window, number | null> = {
    before: moment(events, 'stopAt') - started,
    down: moment(events, 'startAt') - moment(events, 'stopped'),
    after: ended - moment(events, 'started'),
    switch: null,
  };
  const summary = (name: Window) =>
    summarize(
      samples.filter((sample) => windowOf(events, sample) === name),
      lengths[name] === null ? null : Math.max(lengths[name], 1) / 1000,
    );
  return { before: summary('before'), down: summary('down'), after: summary('after'), switch: summary('switch') };
}

/** What (c) must show: the failure message while PostgREST is down, nothing else failing, nothing lost. */
function checkOutage(ctx: LoadContext, c: OutagePhase, { samples, events }: Outage) {
  const { windows, store: check } = c;
  const problem = (text: string) => ctx.problems.push(`(c) ${text}`);
  if (!c.serverAlive) problem('the server died');
  if (c.pageProbe.errors) problem(`${c.pageProbe.errors} page loads failed during the run`);
  if (windows.before.errors || windows.before.failed)
    problem(`${windows.before.errors + windows.before.failed} submissions failed before the fault`);
  if (windows.down.accepted || !windows.down.failed)
    problem(`while PostgREST was down: ${windows.down.accepted} accepted, ${windows.down.failed} failure messages`);
  if (windows.down.errors) problem(`${windows.down.errors} errors (not the failure message) while PostgREST was down`);
  if (!windows.after.accepted) problem('nothing was accepted after the restart');
  if (windows.after.errors) problem(`${windows.after.errors} errors (not the failure message) after the restart`);
  // A restarted backend may refuse a few requests while its connections come up; after that, nothing may fail.
  const started = moment(events, 'started');
  const late = samples.filter(
    (sample) => windowOf(events, sample) === 'after' && sample.start > started + SETTLE_MS && sample.outcome !== 'accepted',
  );
  if (late.length) problem(`${late.length} submissions failed more than ${SETTLE_MS} ms after PostgREST was back`);
  if (check.lost || check.malformed || check.doubled)
    problem(`${check.lost} lost, ${check.malformed} malformed, ${check.doubled} doubled rows`);
  if (check.stored !== check.accepted + check.unacknowledged) problem('stored rows do not add up');
  if (check.unacknowledged)
    ctx.log(`(c) note: ${check.unacknowledged} rows stored although the visitor was told it failed (answer lost at the switch)`);
}

/** (c)'s figures from its run. */
function outageFigures(ctx: LoadContext, outage: Outage, server: AppServer, store: StoreCheck): OutagePhase {
  const { samples, events } = outage;
  const [stopped, startAt, started] = [moment(events, 'stopped'), moment(events, 'startAt'), moment(events, 'started')];
  const recovered = samples
    .filter((sample) => sample.at > started && sample.outcome === 'accepted')
    .map((sample) => sample.at)
    .sort((a, b) => a - b)[0];
  return {
    clients: ctx.submitClients,
    seconds: ctx.seconds,
    postgrestDownSeconds: Math.round((startAt - stopped) / 100) / 10,
    restartSeconds: Math.round((started - startAt) / 100) / 10,
    firstSuccessAfterRestartMs: recovered ? Math.round(recovered - started) : null,
    submit: summarize(samples, ctx.seconds),
    windows: outageWindows(outage),
    pageProbe: summarize(outage.pageSamples, ctx.seconds),
    serverAlive: server.running(),
    store,
    serverLog: server
      .output()
      .split('\n')
      .filter((line) => /failed|error/i.test(line))
      .slice(-12),
    failuresAfterRestartStartedMsAfterIt: samples
      .filter((sample) => windowOf(events, sample) === 'after' && sample.outcome !== 'accepted')
      .map((sample) => Math.round(sample.start - started)),
  };
}

/** (c): PostgREST stopped for the middle third of the run and started again. */
export function outagePhase(ctx: LoadContext): Promise<OutagePhase> {
  return withHostedServer('hosted', async (stack, server) => {
    const tracker = newTracker();
    const submitOne = submitter(ctx, undefined, server.origin, 'c', tracker);
    const warm = await submitOne();
    if (warm.outcome !== 'accepted') ctx.problems.push(`(c) the hosted server did not accept a request before the fault: ${warm.outcome}`);
    const { seconds } = ctx;
    ctx.log(
      `(c) ${ctx.submitClients} clients submitting for ${seconds} s; PostgREST down from ${(seconds / 3).toFixed(1)} s to ${((2 * seconds) / 3).toFixed(1)} s`,
    );
    const agent = agentFor(ctx.submitClients);
    const outage = await outageRun(ctx, stack, server, warm, submitter(ctx, agent, server.origin, 'c', tracker));
    agent.destroy();
    const store = reconcile('c', await stack.query<RequestRow>(REQUEST_ROWS), tracker.accepted, tracker.failed);
    const c = outageFigures(ctx, outage, server, store);
    checkOutage(ctx, c, outage);
    return c;
  });
}
