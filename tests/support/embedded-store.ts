import { existsSync } from 'node:fs';
import path from 'node:path';

import { withStoreCopy } from '../../scripts/lib/store-copy.mjs';

/** Rows from a running server's embedded store under `dataDir`, read from a copy; none before the store exists. */
export async function readEmbedded<T>(dataDir: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const source = path.join(path.resolve(dataDir), 'pglite');
  if (!existsSync(source)) return [];
  return withStoreCopy(source, async (db) => (await db.query<T>(sql, params)).rows);
}
