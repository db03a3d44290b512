/**
 * Reads the embedded store (PGlite) that a running server owns, from a copy: PGlite is a single-process
 * database, and opening the server's directory a second time could corrupt it. The copy opens as after
 * a crash, with every committed row. Used by npm run requests and the browser tests.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';

/**
 * Copies `storeDir`, opens the copy, gives it to `read`, then closes and deletes it.
 *
 * @template T
 * @param {string} storeDir
 * @param {(db: PGlite) => Promise<T>} read
 * @returns {Promise<T>}
 */
export async function withStoreCopy(storeDir, read) {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'store-copy-'));
  try {
    // Without the server's lock file: the copy is a separate database.
    await cp(storeDir, copy, { recursive: true, filter: (file) => path.basename(file) !== 'postmaster.pid' });
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
