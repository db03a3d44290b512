/**
 * The one report every measurement makes: rows of what was measured, its result, its target and whether
 * it was met, and who measured it (the client that produced the number); notes beside them; details for
 * the JSON file. bench/run.ts prints it one way and writes it to bench/reports/<name>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { APP_ROOT } from '../testkit/paths.ts';

export { median } from '../testkit/stats.ts';

export type Row = {
  measure: string;
  /** Who measured it: the client whose numbers these are (wrk, autocannon, Chromium via Playwright, …). */
  client: string;
  result: string;
  /** The target, as a reader checks it ("worst <= 2000 ms"); none for a row that is reported only. */
  target?: string;
  met?: boolean;
};

export type Report = {
  rows: Row[];
  /** What the rows rest on, or what a reader should know: printed under the table. */
  notes?: string[];
  /** Anything the JSON file should keep beyond the rows (runs, settings). */
  details?: unknown;
  /** Problems that make the numbers meaningless (a console error, a lost write): the run fails. */
  problems?: string[];
};

export const REPORTS_DIR = path.join(APP_ROOT, 'bench', 'reports');

/** A positive whole number from the environment variable `name`, or `fallback` when it is unset or empty. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

/** `value` rounded to `digits` decimals; null stays null. */
export const round = (value: number | null | undefined, digits = 1) => (value == null ? null : Number(value.toFixed(digits)));

/** A row of times: median and worst, held to a worst-case target when there is one. */
export function timesRow(measure: string, client: string, times: number[], targetWorstMs?: number): Row {
  const sorted = [...times].sort((a, b) => a - b);
  const middle = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const worst = sorted.at(-1)!;
  return {
    measure,
    client,
    result: `median ${Math.round(middle)} ms, worst ${Math.round(worst)} ms (${times.length} runs)`,
    ...(targetWorstMs === undefined ? {} : { target: `worst <= ${targetWorstMs} ms`, met: worst <= targetWorstMs }),
  };
}

/** Rows of cells as columns padded to their widest cell, two spaces apart. */
export function table(rows: (string | number | boolean | null | undefined)[][]): string {
  const text = rows.map((row) => row.map((cell) => String(cell ?? '')));
  const widths = text[0]!.map((_, column) => Math.max(...text.map((row) => row[column]?.length ?? 0)));
  return text
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const verdict = (met: boolean | undefined) => (met === undefined ? '' : met ? 'ok' : 'MISSED');

/** The rows as a table: measure, result, target, ok/MISSED, client. The one way a row is printed. */
export const rowsTable = (rows: Row[]) =>
  table([
    ['measure', 'result', 'target', '', 'client'],
    ...rows.map((row) => [row.measure, row.result, row.target, verdict(row.met), row.client]),
  ]);

/** Rows whose target was missed. */
export const missedRows = (report: Report) => report.rows.filter((row) => row.met === false);

export type Run = { name: string; startedAt: string; seconds: number; loadAverage: { start: string; end: string } };

export const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** The report as printed: a head naming the run and the machine, the table, the notes, the verdict. */
export function formatReport(run: Run, report: Report): string {
  const missed = missedRows(report);
  return [
    `bench ${run.name}  ${run.startedAt}  ${os.cpus().length} cores, Node ${process.version}, ${run.seconds.toFixed(0)} s`,
    `load average (1, 5, 15 min): ${run.loadAverage.start} at the start, ${run.loadAverage.end} at the end`,
    '',
    rowsTable(report.rows),
    ...(report.notes?.length ? ['', ...report.notes] : []),
    ...(report.problems?.length
      ? ['', `INVALID: ${report.problems.length} problem(s), so these numbers mean nothing:`, ...report.problems.map((p) => `  ${p}`)]
      : []),
    '',
    missed.length
      ? `targets missed: ${missed.map((row) => row.measure.trim()).join('; ')}`
      : report.rows.some((row) => row.met !== undefined)
        ? 'every target met'
        : 'no targets: reported for reading',
  ].join('\n');
}

/** bench/reports/<name>.json: the run, the rows and the details. */
export function writeReport(run: Run, report: Report): string {
  mkdirSync(REPORTS_DIR, { recursive: true });
  const file = path.join(REPORTS_DIR, `${run.name}.json`);
  writeFileSync(file, `${JSON.stringify({ ...run, machine: `${os.cpus().length} cores, Node ${process.version}`, ...report }, null, 2)}\n`);
  return file;
}
