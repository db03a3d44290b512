/**
 * The built app on each of its stores, seeded with what a long-lived site has gathered (testkit/office-rows.ts):
 * the embedded store (PGlite under a DATA_DIR, migrated from the template and seeded before the server
 * opens it) and a hosted one (PostgREST over Debian's PostgreSQL, the Supabase stand-in). One at a time:
 * each is stopped before the next starts, so neither measures the other's load.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';

import { openStore } from '../../lib/store/pglite-core.mjs';
import { startAppServer } from '../../testkit/app-server.ts';
import { seedOfficeRows } from '../../testkit/office-rows.ts';
import { startSupabaseStack, supabaseEnv } from '../../testkit/postgrest-harness.ts';
import { preparedDataDir, storeDir } from '../../testkit/store.ts';

export type OfficeStore = 'PGlite' | 'PostgreSQL through PostgREST';
export const OFFICE_STORES: OfficeStore[] = ['PGlite', 'PostgreSQL through PostgREST'];

/** A running app on a seeded store: its origin, and how long the seeding took. */
export type SeededApp = { origin: string; seedSeconds: number };

type Log = (line: string) => void;

const seconds = (since: number) => (performance.now() - since) / 1000;

/** The embedded store under `dataDir`, seeded with `rows` of each, then the app on it. */
async function onPglite<T>(dataDir: string, rows: number, log: Log, measure: (app: SeededApp) => Promise<T>): Promise<T> {
  await preparedDataDir(dataDir);
  const started = performance.now();
  // Without fsync: a seed that a crash lost would be seeded again; the server then opens it durable, as deployed.
  const db = await openStore(storeDir(dataDir), { fsync: false });
  try {
    await seedOfficeRows((sql) => db.exec(sql), rows);
  } finally {
    await db.close();
  }
  const seedSeconds = seconds(started);
  log(`PGlite seeded in ${seedSeconds.toFixed(1)} s; starting the app`);
  const server = await startAppServer({ DATA_DIR: dataDir });
  try {
    return await measure({ origin: server.origin, seedSeconds });
  } finally {
    await server.stop();
  }
}

/** The Supabase stand-in over PostgreSQL, seeded with `rows` of each, then the app on it. */
async function onPostgres<T>(dataDir: string, rows: number, log: Log, measure: (app: SeededApp) => Promise<T>): Promise<T> {
  const stack = await startSupabaseStack({ database: 'postgres' });
  try {
    const started = performance.now();
    await seedOfficeRows((sql) => stack.query(sql), rows);
    const seedSeconds = seconds(started);
    log(`PostgreSQL seeded in ${seedSeconds.toFixed(1)} s; starting the app`);
    // A hosted store has no key file of its own: the erase's HMAC needs one from the environment.
    const env = { ...supabaseEnv(stack), BACK_OFFICE_HMAC_KEY: randomBytes(32).toString('base64url'), DATA_DIR: dataDir };
    const server = await startAppServer(env);
    try {
      return await measure({ origin: server.origin, seedSeconds });
    } finally {
      await server.stop();
    }
  } finally {
    await stack.close();
  }
}

/** Runs `measure` on the app over `store`, seeded with `rows` requests and `rows` subscribers, in a folder under `dir`. */
export function withSeededApp<T>(
  store: OfficeStore,
  dir: string,
  rows: number,
  log: Log,
  measure: (app: SeededApp) => Promise<T>,
): Promise<T> {
  const dataDir = path.join(dir, store === 'PGlite' ? 'pglite-data' : 'postgres-data');
  return store === 'PGlite' ? onPglite(dataDir, rows, log, measure) : onPostgres(dataDir, rows, log, measure);
}
