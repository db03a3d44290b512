import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';

/**
 * Reads a running server's embedded store from a copy: the server process owns the directory, and a
 * second PGlite on the same files could damage them. Returns no rows when the store does not exist yet.
 */
export async function readEmbedded<T>(dataDir: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const source = path.join(path.resolve(dataDir), 'pglite');
  if (!existsSync(source)) return [];
  const copy = await mkdtemp(path.join(os.tmpdir(), 'pglite-copy-'));
  try {
    // Without the server's lock file: the copy is a separate database.
    await cp(source, copy, { recursive: true, filter: (file) => path.basename(file) !== 'postmaster.pid' });
    const db = await PGlite.create(copy);
    try {
      return (await db.query<T>(sql, params)).rows;
    } finally {
      await db.close();
    }
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}
