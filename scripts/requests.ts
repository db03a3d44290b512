/**
 * npm run requests — the newest 20 support requests and newsletter subscribers in the embedded store
 * (PGlite under $DATA_DIR/pglite, default .data/pglite). A hosted Supabase project is read in its dashboard.
 *
 * A running server keeps that directory open, and PGlite is a single-process database: opening it
 * a second time could corrupt it. So this opens a throwaway copy (testkit/store.ts).
 * Plain `node` runs this file (type stripping): packages, node: and relative imports, no "@/" alias.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

import { appPath } from '../lib/app-root.mjs';
import { storeDir, withStoreCopy } from '../testkit/store.ts';

const LIMIT = 20;
// As lib/env/server.ts dataDir(), which is server-only and so not importable here.
const dataDir = process.env.DATA_DIR?.trim() ? path.resolve(process.env.DATA_DIR.trim()) : appPath('.data');

const clip = (text: unknown, max: number) => {
  const flat = String(text).replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

async function main() {
  if (!(await stat(storeDir(dataDir)).catch(() => null))?.isDirectory()) {
    console.log(`No embedded store at ${storeDir(dataDir)} yet: nothing has been submitted.`);
    return;
  }
  await withStoreCopy(dataDir, async (db) => {
    const hasTables = await db.query<{ found: boolean }>("select to_regclass('public.support_requests') is not null as found");
    if (!hasTables.rows[0]?.found) return console.log('The store has no tables yet: nothing has been submitted.');

    const requests = await db.query<Record<string, unknown>>(
      `select created_at, type, status, email, subject, message from public.support_requests order by created_at desc limit ${LIMIT}`,
    );
    console.log(`Support requests (newest ${LIMIT}, ${storeDir(dataDir)}):`);
    if (requests.rows.length === 0) console.log('  none');
    else
      console.table(
        requests.rows.map((row) => ({
          created: (row.created_at as Date).toISOString(),
          type: row.type,
          status: row.status,
          email: row.email,
          subject: clip(row.subject, 40),
          message: clip(row.message, 60),
        })),
      );

    const subscribers = await db.query<{ created_at: Date; email: string }>(
      `select created_at, email from public.newsletter_subscribers order by created_at desc limit ${LIMIT}`,
    );
    console.log(`\nNewsletter subscribers (newest ${LIMIT}):`);
    if (subscribers.rows.length === 0) console.log('  none');
    else console.table(subscribers.rows.map((row) => ({ created: row.created_at.toISOString(), email: row.email })));
  });
}

await main();
