/**
 * `lcp URL...` — what Lighthouse's LCP of a page is made of, from one run's trace (the site must be
 * running, e.g. npm start). For each URL: a row with the simulated and the observed (unthrottled) LCP,
 * and a note listing each request with when it ended and when its script first ran, against the
 * observed paint.
 *
 * Lighthouse 13's simulated LCP keeps every request that ended before the observed paint, unless its
 * script first ran after the paint (FirstContentfulPaint.getRenderBlockingNodeData in
 * @paulirish/trace_engine's lantern), and then replays them on slow 4G. `counted` marks those
 * requests: a page that paints after its async scripts arrive has them all in its LCP.
 * THROTTLING=devtools throttles the load itself instead (no request is then "counted" by a simulation).
 *
 * And the run's main-thread tasks long enough to block (12.5 ms unthrottled, which the simulation's 4×
 * slower CPU makes 50 ms; 50 ms when throttled): when each began, whose it was, and what took its time.
 */
import { MainThreadTasks } from 'lighthouse/core/computed/main-thread-tasks.js';

import { launchLighthouseBrowser, lighthouseRun, type Throttling } from '../testkit/lighthouse.ts';
import { observedLcpMs } from './lib/lighthouse.ts';
import { table, type Report, type Row } from './report.ts';

type TraceEvent = { name: string; ts: number; args?: { data?: { url?: string; isLoadingMainFrame?: boolean } } };
type Request = { url: string; resourceType?: string; networkRequestTime?: number; networkEndTime?: number; transferSize?: number };
type Task = { startMs: number; durationMs: number; owner: string; parts: string };
type Trace = {
  url: string;
  lcpMs: number | null;
  observedMs: number;
  requests: (Request & { firstRunMs?: number; counted: boolean })[];
  tasks: Task[];
};
type TaskNode = Awaited<ReturnType<typeof MainThreadTasks.request>>[number];

/** A task's children by event name, the longest first: `Layout 68, UpdateLayoutTree 5`. */
const parts = (task: TaskNode) =>
  task.children
    .filter((child) => child.duration >= 1)
    .sort((a, b) => b.duration - a.duration)
    .slice(0, 4)
    .map((child) => `${child.event.name} ${child.duration.toFixed(0)}`)
    .join(', ');

/** The top-level tasks of the run's trace of at least `minMs`, in order, with whose (the first URL they ran) and what they did. */
async function longTasks(artifacts: unknown, minMs: number): Promise<Task[]> {
  const trace = (artifacts as { Trace: Parameters<typeof MainThreadTasks.request>[0] }).Trace;
  const tasks = await MainThreadTasks.request(trace, { computedCache: new Map() } as Parameters<typeof MainThreadTasks.request>[1]);
  return tasks
    .filter((task) => !task.parent && task.duration >= minMs)
    .map((task) => ({
      startMs: task.startTime,
      durationMs: task.duration,
      owner: new URL(task.attributableURLs[0] ?? 'about:none').pathname,
      parts: parts(task),
    }));
}

const ms = (value: number | null | undefined) => (value == null ? '-' : value.toFixed(0));

/** When each script URL was first evaluated, in ms since the main frame's navigation started. */
function firstRuns(events: TraceEvent[]) {
  const start = events.find((event) => event.name === 'navigationStart' && event.args?.data?.isLoadingMainFrame)?.ts ?? 0;
  const firstRun = new Map<string, number>();
  for (const event of events) {
    const script = event.name === 'EvaluateScript' ? event.args?.data?.url : undefined;
    if (script && !firstRun.has(script)) firstRun.set(script, (event.ts - start) / 1000);
  }
  return firstRun;
}

/** One Lighthouse run of `url`: its LCP, the observed paint, and each request, marked when the simulation counts it. */
async function trace(url: string, port: number, throttling: Throttling): Promise<Trace> {
  const { lhr, artifacts } = await lighthouseRun(url, port, ['performance'], throttling);
  const firstRun = firstRuns((artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace.traceEvents);
  const paint = observedLcpMs(lhr) ?? 0;
  const requests = ((lhr.audits['network-requests']?.details as { items?: Request[] } | undefined)?.items ?? []).map((request) => {
    const ran = firstRun.get(request.url);
    const counted = (request.networkEndTime ?? Infinity) <= paint && !(ran !== undefined && ran > paint);
    return { ...request, firstRunMs: ran, counted };
  });
  const tasks = await longTasks(artifacts, throttling === 'devtools' ? 50 : 12.5);
  return { url, lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? null, observedMs: paint, requests, tasks };
}

const taskTable = ({ url, tasks }: Trace) =>
  `${url}, long tasks:\n${table([
    ['began (ms)', 'took (ms)', 'whose', 'what took its time (ms)'],
    ...tasks.map(({ startMs, durationMs, owner, parts }) => [ms(startMs), ms(durationMs), owner, parts]),
  ])}`;

const requestTable = ({ url, requests }: Trace) =>
  `${url}:\n${table([
    ['request', 'type', 'ended (ms)', 'script first ran (ms)', 'bytes', ''],
    ...requests.map((request) => {
      const where = new URL(request.url);
      const { resourceType = '', networkEndTime, firstRunMs, transferSize = 0, counted } = request;
      return [where.pathname + where.search, resourceType, ms(networkEndTime), ms(firstRunMs), transferSize, counted ? 'counted' : ''];
    }),
  ])}`;

export async function measure(urls: string[]): Promise<Report> {
  if (urls.length === 0) throw new Error('usage: npm run bench -- lcp http://127.0.0.1:3000/ [more URLs]');
  const throttling: Throttling = process.env.THROTTLING === 'devtools' ? 'devtools' : 'simulate';
  const traces: Trace[] = [];
  const chrome = await launchLighthouseBrowser();
  try {
    for (const url of urls) traces.push(await trace(url, chrome.port, throttling));
  } finally {
    chrome.kill();
  }
  const rows = traces.map(({ url, lcpMs, observedMs }): Row => ({
    measure: `LCP of ${url}`,
    client: 'Lighthouse in Chromium',
    result: `${ms(lcpMs)} ms (${throttling}), observed paint ${ms(observedMs)} ms`,
  }));
  const counted =
    throttling === 'simulate'
      ? 'counted: a request the simulated LCP replays (it ended before the observed paint, and its script did not first run after it).'
      : 'THROTTLING=devtools: the load itself was throttled; counted marks what a simulation would replay, which this LCP did not.';
  return { rows, notes: [counted, ...traces.flatMap((trace) => [requestTable(trace), taskTable(trace)])], details: { throttling, traces } };
}
