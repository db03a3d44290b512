/**
 * Reads the embedded store (PGlite) under a DATA_DIR, running server or not, from a copy: PGlite is a
 * single-process database, and opening the server's directory a second time could corrupt it. The copy
 * opens as after a crash, with every committed row. Used by npm run requests, the load test, the bench
 * and the browser tests.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { openStore, PGlite } from '../lib/store/pglite-core.mjs';

import { APP_ROOT } from './paths.ts';

/** Where the app keeps its embedded store under DATA_DIR (lib/store/pglite.ts). */
export const storeDir = (dataDir: string) => path.join(path.resolve(dataDir), 'pglite');

/** Copies the store under `dataDir`, opens the copy, gives it to `read`, then closes and deletes it. */
export async function withStoreCopy<T>(dataDir: string, read: (db: PGlite) => Promise<T>): Promise<T> {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'store-copy-'));
  try {
    // Without the server's lock file: the copy is a separate database.
    await cp(storeDir(dataDir), copy, { recursive: true, filter: (file) => path.basename(file) !== 'postmaster.pid' });
    const db = await PGlite.create(copy);
    try {
      return await read(db);
    } finally {
      await db.close();
    }
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/** Rows of `sql` in the store under `dataDir`, read from a copy; none before the store exists. */
export async function readStore<T>(dataDir: string, sql: string, params: unknown[] = []): Promise<T[]> {
  if (!existsSync(storeDir(dataDir))) return [];
  return withStoreCopy(dataDir, async (db) => (await db.query<T>(sql, params)).rows);
}

/**
 * Gives `dataDir` a store that is created and migrated already, copied from a template made once per set
 * of migrations: PGlite's initdb costs a server's first start about 6.5 s of CPU on a 2-core machine, which
 * the browser tests' many servers need not each pay. For servers whose tests are not about a first start;
 * the server still takes the copy's lock and applies any newer migration as it would. Returns `dataDir`.
 */
export async function preparedDataDir(dataDir: string): Promise<string> {
  await cp(await (template ??= storeTemplate()), storeDir(dataDir), { recursive: true });
  return dataDir;
}

let template: Promise<string> | undefined;

/** The template of the current migrations and PGlite, made if missing (by whichever process gets there first). */
async function storeTemplate(): Promise<string> {
  const supabase = path.join(APP_ROOT, 'supabase');
  const hash = createHash('sha256').update(readFileSync(path.join(APP_ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  for (const file of [
    'bootstrap.sql',
    ...readdirSync(path.join(supabase, 'migrations'))
      .sort()
      .map((name) => `migrations/${name}`),
  ]) {
    hash.update(file).update(readFileSync(path.join(supabase, file)));
  }
  const dir = path.join(APP_ROOT, 'node_modules', '.cache', 'store-template', hash.digest('hex').slice(0, 16));
  if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  await mkdir(path.dirname(dir), { recursive: true });
  const scratch = await mkdtemp(`${dir}-`);
  try {
    await (await openStore(scratch, { fsync: false })).close();
    // Atomic: another process that made it meanwhile keeps its copy, which is the same.
    await rename(scratch, dir);
  } catch (error) {
    if (!existsSync(path.join(dir, 'PG_VERSION'))) throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return dir;
}
