/**
 * Load in alternating rounds: the machine's speed drifts within a run (other processes, heat), so two
 * servers compared in one long run each would each meet a different machine. Short rounds taken in
 * turn, the order flipped each round, meet the same drift.
 */
import os from 'node:os';

import { median } from './table.mjs';

/**
 * Runs `measure(side, round)` for each side in each round, in turn; returns each side's runs.
 *
 * @template {string} Side
 * @template R
 * @param {number} rounds
 * @param {Side[]} sides
 * @param {(side: Side, round: number) => Promise<R>} measure
 * @returns {Promise<Record<Side, (R & { loadAverage: number })[]>>}
 */
export async function alternate(rounds, sides, measure) {
  const runs = /** @type {Record<Side, (R & { loadAverage: number })[]>} */ (Object.fromEntries(sides.map((side) => [side, []])));
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const result = await measure(side, round);
      runs[side].push({
        ...result,
        loadAverage: Number(os.loadavg()[0].toFixed(2)),
      });
    }
  }
  return runs;
}

/**
 * One result from a side's rounds: successes per second over all of them, the median round's p99.
 *
 * @param {{ ok: number, failed: number, errors: number, seconds: number, p99Ms?: number | null, loadAverage: number }[]} runs
 */
export function combine(runs) {
  const sum = (/** @type {'ok' | 'failed' | 'errors' | 'seconds'} */ key) => runs.reduce((total, run) => total + run[key], 0);
  const p99s = runs.map((run) => run.p99Ms).filter((value) => value != null);
  return {
    ok: sum('ok'),
    failed: sum('failed'),
    errors: sum('errors'),
    seconds: Number(sum('seconds').toFixed(2)),
    perSecond: Number((sum('ok') / sum('seconds')).toFixed(1)),
    p99Ms: median(/** @type {number[]} */ (p99s)),
    perRound: runs.map((run) => ({
      perSecond: Number((run.ok / run.seconds).toFixed(1)),
      p99Ms: run.p99Ms ?? null,
      loadAverage: run.loadAverage,
    })),
  };
}
