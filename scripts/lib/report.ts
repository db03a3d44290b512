/** What every measuring script shares to read its settings and print its results. */
import { cpus } from 'node:os';
import path from 'node:path';

import { APP_ROOT } from '../../testkit/paths.ts';

/** A positive whole number from the environment variable `name`, or `fallback` when it is unset or empty. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

/**
 * The settings the write measurements share (measure:durability, measure:quotas): MEASURE_SECONDS per run
 * (default `seconds`), MEASURE_ROUNDS rounds (default 3), 20 concurrent writers; and the report's file.
 */
export function writeMeasure(report: string, seconds: number) {
  return {
    report: path.join(APP_ROOT, 'bench', `${report}-report.json`),
    seconds: envInt('MEASURE_SECONDS', seconds),
    rounds: envInt('MEASURE_ROUNDS', 3),
    clients: 20,
  };
}

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export { median } from '../../testkit/stats.ts';

/** `value` rounded to `digits` decimals; null stays null. */
export const round = (value: number | null | undefined, digits = 1) => (value == null ? null : Number(value.toFixed(digits)));

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

/** 'ok' or 'MISSED' beside a result, for a target that was met or not. */
export const verdict = (met: boolean) => (met ? 'ok' : 'MISSED');

/** The head every measuring script's JSON report starts with: when, how long, how often, on what. */
export function reportHead(settings: { seconds: number; rounds: number; clients: number }) {
  return { date: new Date().toISOString(), ...settings, machine: `${cpus().length} CPUs, Node ${process.version}` };
}
