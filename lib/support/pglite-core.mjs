// Plain JavaScript: the app imports it, and so does pglite-worker.mjs, which runs in a worker thread
// as a plain file, not bundled.
import { mkdir } from 'node:fs/promises';

import { PGlite } from '@electric-sql/pglite';

import { migrate } from '../../supabase/migrate.mjs';
import { appPath } from '../app-root.mjs';

// bootstrap.sql and migrations/, read at run time (next.config.ts ships them with the standalone server).
const SUPABASE_DIR = appPath('supabase');

/**
 * Opens (creating if needed) and migrates the store in `dir`; `undefined` for an in-memory one.
 *
 * @param {string | undefined} dir
 * @returns {Promise<PGlite>}
 */
export async function openStore(dir) {
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

/**
 * Applies pending migrations to an open store; returns the ones applied now.
 *
 * @param {PGlite} db
 * @returns {Promise<string[]>}
 */
export const migrateStore = (db) => migrate(db, SUPABASE_DIR);

/**
 * Runs one insert as the anon role inside a transaction, as PostgREST does for the public key.
 *
 * @param {PGlite} db
 * @param {'support_requests' | 'newsletter_subscribers'} table
 * @param {Record<string, string>} row
 * @returns {Promise<void>}
 */
export async function insertAsAnon(db, table, row) {
  const columns = Object.keys(row);
  // Table and column names come from this codebase, never from a visitor; still, refuse anything but plain names.
  if (![table, ...columns].every((name) => /^[a-z_]+$/.test(name))) throw new Error(`bad table or column list for ${table}`);
  const placeholders = columns.map((_, index) => `$${index + 1}`).join(', ');
  await db.transaction(async (tx) => {
    await tx.exec('set local role anon');
    await tx.query(`insert into public.${table} (${columns.join(', ')}) values (${placeholders})`, Object.values(row));
  });
}
