/** The settings the write measurements share (durability, quotas), read when a run starts. */
import { envInt } from '../report.ts';

export type WriteSettings = { seconds: number; rounds: number; clients: number };

/** MEASURE_SECONDS per run (default `seconds`), MEASURE_ROUNDS rounds (default 3), 20 concurrent writers. */
export const writeSettings = (seconds: number): WriteSettings => ({
  seconds: envInt('MEASURE_SECONDS', seconds),
  rounds: envInt('MEASURE_ROUNDS', 3),
  clients: 20,
});
