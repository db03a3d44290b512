/**
 * Reads the embedded store (PGlite) under a DATA_DIR, running server or not, from a copy: PGlite is a
 * single-process database, and opening the server's directory a second time could corrupt it. The copy
 * opens as after a crash, with every committed row. Used by npm run requests, the load test, the bench
 * and the browser tests.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { PGlite } from '../lib/support/pglite-core.mjs';

/** Where the app keeps its embedded store under DATA_DIR (lib/support/pglite.ts). */
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
