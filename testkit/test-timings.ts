/**
 * How long each test took, beside its limit, for `npm test`'s closing list of the slowest tests: the
 * runners' reporters (slowest-tests.ts for Playwright, vitest-timings.ts for Vitest) write them, and
 * scripts/test.mjs prints them once every step has run. A test that uses more than half its limit would
 * fail on a machine half as fast: the list names each one. It reports; it fails nothing, as a time
 * measured on one machine is no verdict on another.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { APP_ROOT } from './paths.ts';

/** limitSeconds is null for a beforeAll hook's time: its limit is its own (test.setTimeout in the hook), which a reporter cannot see. */
export type Timing = { runner: 'unit' | 'browser'; title: string; seconds: number; limitSeconds: number | null };

const DIR = path.join(APP_ROOT, '.data', 'test-timings');
const fileOf = (runner: Timing['runner']) => path.join(DIR, `${runner}.json`);
const SHOWN = 10;
const HEADROOM = 2;

export function writeTimings(runner: Timing['runner'], timings: Timing[]): void {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(fileOf(runner), JSON.stringify(timings));
}

/** Forgets the last run's timings, so that a step that does not run this time lists nothing stale. */
export function clearTimings(): void {
  rmSync(DIR, { recursive: true, force: true });
}

function readTimings(): Timing[] {
  return (['unit', 'browser'] as const).flatMap((runner) => {
    try {
      return JSON.parse(readFileSync(fileOf(runner), 'utf8')) as Timing[];
    } catch {
      return [];
    }
  });
}

const line = ({ runner, title, seconds, limitSeconds }: Timing) =>
  `  ${seconds.toFixed(1).padStart(6)} s ${limitSeconds === null ? 'of its own limit ' : `of ${String(limitSeconds).padStart(4)} s (${String(Math.round((100 * seconds) / limitSeconds)).padStart(2)}%)`}  ${runner}  ${title}`;

/** The slowest tests of the last run, each beside its limit, and every one that used more than half of it. */
export function slowestTestsReport(): string {
  const timings = readTimings();
  if (timings.length === 0) return '';
  const slowest = [...timings].sort((a, b) => b.seconds - a.seconds).slice(0, SHOWN);
  const tight = timings.filter(({ seconds, limitSeconds }) => limitSeconds !== null && seconds * HEADROOM > limitSeconds);
  return [
    `The ${slowest.length} slowest tests, each beside its limit:`,
    ...slowest.map(line),
    tight.length === 0
      ? `Every one of the ${timings.length} tests used at most 1/${HEADROOM} of its limit.`
      : `${tight.length} test(s) used more than 1/${HEADROOM} of the limit: too little headroom for a slower machine.`,
    ...tight.map(line),
  ].join('\n');
}
