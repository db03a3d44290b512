import 'server-only';

import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';

/**
 * The embedded store: Postgres (PGlite) persisted on disk, with the same
 * supabase/migrations as the hosted database and every visitor write made as
 * role anon, so the same grants and row-level security decide.
 */

const MIGRATIONS_DIR = path.join(process.cwd(), 'supabase', 'migrations');
const BOOTSTRAP_FILE = path.join(process.cwd(), 'supabase', 'bootstrap.sql');

/** Applies the bootstrap, then each migration not yet recorded, in file-name order, each once. */
export async function migrate(db: PGlite): Promise<string[]> {
  await db.exec(await readFile(BOOTSTRAP_FILE, 'utf8'));
  const applied = new Set((await db.query<{ version: string }>('select version from public.schema_migrations')).rows.map((row) => row.version));
  const files = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
  const ran: string[] = [];
  for (const file of files.filter((name) => !applied.has(name))) {
    const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query('insert into public.schema_migrations (version) values ($1)', [file]);
    });
    ran.push(file);
  }
  return ran;
}

/** Opens (creating if needed) and migrates the store in `dir`; `undefined` for an in-memory one. */
export async function openStore(dir: string | undefined): Promise<PGlite> {
  if (dir) await mkdir(dir, { recursive: true });
  const db = await PGlite.create(dir);
  await migrate(db);
  return db;
}

// One PGlite per data directory per process: Next may load this module in several bundles.
const globalStores = globalThis as typeof globalThis & { pgliteStores?: Map<string, Promise<PGlite>> };

export function sharedStore(dir: string): Promise<PGlite> {
  const stores = (globalStores.pgliteStores ??= new Map());
  let store = stores.get(dir);
  if (!store) {
    store = openStore(dir);
    // A failed open is not cached, so the next request tries again.
    store.catch(() => stores.delete(dir));
    stores.set(dir, store);
  }
  return store;
}

/** Runs one insert as the anon role inside a transaction, as PostgREST does for the public key. */
export async function insertAsAnon(db: PGlite, table: 'support_requests' | 'newsletter_subscribers', row: Record<string, string>): Promise<void> {
  const columns = Object.keys(row);
  const placeholders = columns.map((_, index) => `$${index + 1}`).join(', ');
  await db.transaction(async (tx) => {
    await tx.exec('set local role anon');
    await tx.query(`insert into public.${table} (${columns.join(', ')}) values (${placeholders})`, Object.values(row));
  });
}
