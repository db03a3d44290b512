/**
 * What a Lighthouse run's Total Blocking Time is made of: its long tasks (the `long-tasks` audit's debug
 * data, with the simulated timings when the throttling is simulated), each task's blocking part (its
 * time between FCP and TTI over 50 ms, as TBT counts it) shared among what the task did (Lighthouse's
 * task groups: script evaluation, style and layout, HTML parsing...) and charged to whose task it was
 * (the page's HTML document, a script, or nothing Lighthouse could name).
 */
import { median, round } from '../report.ts';

type Lhr = { audits: Record<string, { numericValue?: number; details?: unknown } | undefined> };
type DebugTask = { urlIndex: number; startTime: number; duration: number } & Record<string, number>;
type DebugData = { urls: string[]; tasks: DebugTask[] };

/** Lighthouse's task groups (TaskGroupIds), in the order the tables show them. */
export const TASK_GROUPS = [
  'scriptEvaluation',
  'scriptParseCompile',
  'parseHTML',
  'styleLayout',
  'paintCompositeRender',
  'garbageCollection',
  'other',
] as const;

/** Over this a task blocks input (TBT's threshold). */
const BLOCKING_MS = 50;

/** Blocking ms by task group and by owner (`document`, a script's path, `unattributable`) of one run of `pageUrl`. */
export function blockingBreakdown(lhr: Lhr, pageUrl: string) {
  const fcp = lhr.audits['first-contentful-paint']?.numericValue ?? 0;
  const tti = lhr.audits.interactive?.numericValue ?? Infinity;
  const debug = (lhr.audits['long-tasks']?.details as { debugData?: DebugData } | undefined)?.debugData;
  const byGroup: Record<string, number> = Object.fromEntries(TASK_GROUPS.map((group) => [group, 0]));
  const byOwner: Record<string, number> = {};
  for (const task of debug?.tasks ?? []) {
    const blocking = Math.min(task.startTime + task.duration, tti) - Math.max(task.startTime, fcp) - BLOCKING_MS;
    if (blocking <= 0) continue;
    const url = debug!.urls[task.urlIndex] ?? '';
    const owner = url === pageUrl ? 'document' : url.startsWith('http') ? new URL(url).pathname : 'unattributable';
    byOwner[owner] = (byOwner[owner] ?? 0) + blocking;
    for (const group of TASK_GROUPS) byGroup[group]! += (blocking * (task[group] ?? 0)) / task.duration;
  }
  return { byGroup, byOwner };
}
export type Breakdown = ReturnType<typeof blockingBreakdown>;

/** The median of each cell over the runs (a missing owner counts 0), rounded to ms. */
export function medianBreakdown(runs: Breakdown[]): Breakdown {
  const medians = (records: Record<string, number>[]) => {
    const keys = [...new Set(records.flatMap((record) => Object.keys(record)))];
    return Object.fromEntries(keys.map((key) => [key, round(median(records.map((record) => record[key] ?? 0)), 0) ?? 0]));
  };
  return { byGroup: medians(runs.map((run) => run.byGroup)), byOwner: medians(runs.map((run) => run.byOwner)) };
}
