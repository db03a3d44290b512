import 'server-only';

import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';

import { migrate } from '@/supabase/migrate.mjs';

/**
 * The embedded store: Postgres (PGlite) persisted on disk, with the same
 * supabase/migrations as the hosted database and every visitor write made as
 * role anon, so the same grants and row-level security decide.
 */

// Read at run time from the repo root (`next start` runs there), not bundled.
const SUPABASE_DIR = path.join(process.cwd(), 'supabase');

export type Table = 'support_requests' | 'newsletter_subscribers';

/** Opens (creating if needed) and migrates the store in `dir`; `undefined` for an in-memory one. */
export async function openStore(dir: string | undefined): Promise<PGlite> {
  if (dir) await mkdir(dir, { recursive: true });
  const db = await PGlite.create(dir);
  try {
    await migrate(db, SUPABASE_DIR);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** Applies pending migrations to an open store; returns the ones applied now. */
export const migrateStore = (db: PGlite): Promise<string[]> => migrate(db, SUPABASE_DIR);

// One PGlite per data directory per process: Next may load this module in several bundles.
const globalStores = globalThis as typeof globalThis & { pgliteStores?: Map<string, Promise<PGlite>> };

export function sharedStore(dir: string): Promise<PGlite> {
  const stores = (globalStores.pgliteStores ??= new Map());
  const existing = stores.get(dir);
  if (existing) return existing;
  const opening = openStore(dir);
  stores.set(dir, opening);
  // A failed open is not cached, so the next request tries again.
  opening.catch(() => {
    if (stores.get(dir) === opening) stores.delete(dir);
  });
  return opening;
}

/** Closes and forgets the shared store of `dir` (tests; a later write reopens it). */
export async function closeSharedStore(dir: string): Promise<void> {
  const store = globalStores.pgliteStores?.get(dir);
  if (!store) return;
  globalStores.pgliteStores?.delete(dir);
  await (await store.catch(() => null))?.close();
}

/** Runs one insert as the anon role inside a transaction, as PostgREST does for the public key. */
export async function insertAsAnon(db: PGlite, table: Table, row: Record<string, string>): Promise<void> {
  const columns = Object.keys(row);
  // Column names come from this codebase, never from a visitor; still, refuse anything but plain names.
  if (!columns.every((name) => /^[a-z_]+$/.test(name))) throw new Error(`bad column list for ${table}`);
  const placeholders = columns.map((_, index) => `$${index + 1}`).join(', ');
  await db.transaction(async (tx) => {
    await tx.exec('set local role anon');
    await tx.query(`insert into public.${table} (${columns.join(', ')}) values (${placeholders})`, Object.values(row));
  });
}
