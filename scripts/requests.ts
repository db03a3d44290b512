/**
 * npm run requests — what the store holds, for the people who answer it:
 *
 *   - the newest 20 support requests and newsletter subscribers (with their language and state: pending,
 *     confirmed, unsubscribed), from the embedded store (PGlite under $DATA_DIR/pglite, default .data/pglite);
 *   - for legal reviewers, per announced version of the privacy policy: how many subscribers were told,
 *     the first and the last send, and what is still pending, failed or cancelled (public.notice_summary).
 *
 * With NEXT_PUBLIC_SUPABASE_URL and SUPABASE_SECRET_KEY set (here or in .env.local), the notices come from
 * the hosted Supabase project instead, through that service-only function; its requests and subscribers
 * are read in its dashboard.
 *
 * A running server keeps the embedded store's directory open, and PGlite is a single-process database:
 * opening it a second time could corrupt it. So this opens a throwaway copy (testkit/store.ts).
 * Plain `node` runs this file (type stripping): packages, node: and relative imports, no "@/" alias.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

import { createClient } from '@supabase/supabase-js';

import { appPath } from '../lib/shared/app-root.mjs';
import type { PGlite } from '../lib/store/pglite-core.mjs';
import { storeDir, withStoreCopy } from '../testkit/store.ts';

const LIMIT = 20;
// As lib/env/server.ts dataDir(), which is server-only and so not importable here.
const dataDir = process.env.DATA_DIR?.trim() ? path.resolve(process.env.DATA_DIR.trim()) : appPath('.data');

const clip = (text: unknown, max: number) => {
  const flat = String(text).replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** A time as the table shows it: ISO, or a dash. */
const time = (value: unknown) => (value ? new Date(value as string | Date).toISOString() : '–');

type NoticeRow = {
  version_date: string | null;
  announced_at: string | Date | null;
  withdrawn_at: string | Date | null;
  told: number | null;
  first_sent: string | Date | null;
  last_sent: string | Date | null;
  pending: number | null;
  failed: number | null;
  cancelled: number | null;
};

function printNotices(rows: NoticeRow[], where: string) {
  console.log(`\nPolicy notices per version (${where}):`);
  if (rows.length === 0) return console.log('  no version has been announced to subscribers');
  console.table(
    rows.map((row) => ({
      version: row.version_date,
      announced: time(row.announced_at),
      withdrawn: time(row.withdrawn_at),
      told: row.told,
      'first sent': time(row.first_sent),
      'last sent': time(row.last_sent),
      pending: row.pending,
      failed: row.failed,
      cancelled: row.cancelled,
    })),
  );
}

// '' is the default language, whichever Site settings name.
const languageOf = (language: unknown) => language || 'default';

async function printEmbedded(db: PGlite) {
  const requests = await db.query<Record<string, unknown>>(
    `select created_at, type, language, status, email, subject, message from public.support_requests order by created_at desc limit ${LIMIT}`,
  );
  console.log(`Support requests (newest ${LIMIT}, ${storeDir(dataDir)}):`);
  if (requests.rows.length === 0) console.log('  none');
  else
    console.table(
      requests.rows.map((row) => ({
        created: time(row.created_at),
        type: row.type,
        language: languageOf(row.language),
        status: row.status,
        email: row.email,
        subject: clip(row.subject, 40),
        message: clip(row.message, 60),
      })),
    );

  const subscribers = await db.query<{ created_at: Date; email: string; language: string; status: string; confirmed_at: Date | null }>(
    `select created_at, email, language, status, confirmed_at from public.newsletter_subscribers order by created_at desc limit ${LIMIT}`,
  );
  const counts = await db.query<{ status: string; n: number }>(
    'select status, count(*)::int as n from public.newsletter_subscribers group by status order by status',
  );
  console.log(`\nNewsletter subscribers (newest ${LIMIT}; ${counts.rows.map(({ status, n }) => `${n} ${status}`).join(', ') || 'none'}):`);
  if (subscribers.rows.length > 0)
    console.table(
      subscribers.rows.map((row) => ({
        created: time(row.created_at),
        email: row.email,
        language: languageOf(row.language),
        status: row.status,
        confirmed: time(row.confirmed_at),
      })),
    );
  printNotices((await db.query<NoticeRow>('select * from public.notice_summary()')).rows, storeDir(dataDir));
}

/** The hosted project's notices, with the server's secret key (the public key may not call the function). */
async function printHosted(url: string, secretKey: string) {
  const client = createClient(url, secretKey, { auth: { persistSession: false, autoRefreshToken: false } });
  // No Database type here (that is the app's, behind "@/"): the rows are read as NoticeRow.
  const { data, error } = (await client.rpc('notice_summary')) as { data: NoticeRow[] | null; error: { message: string } | null };
  if (error) throw new Error(`notice_summary on ${url} failed: ${error.message} (apply supabase/migrations first?)`);
  console.log(`Support requests and newsletter subscribers: in the Supabase dashboard of ${url} (Table Editor).`);
  printNotices(data ?? [], url);
}

async function main() {
  const url = process.env.NEXT_PUBLIC_SUPABASE_URL?.trim();
  const secretKey = process.env.SUPABASE_SECRET_KEY?.trim();
  if (url && secretKey) return printHosted(url, secretKey);
  if (!(await stat(storeDir(dataDir)).catch(() => null))?.isDirectory()) {
    console.log(`No embedded store at ${storeDir(dataDir)} yet: nothing has been submitted.`);
    return;
  }
  await withStoreCopy(dataDir, async (db) => {
    const hasTables = await db.query<{ found: boolean }>("select to_regprocedure('public.notice_summary()') is not null as found");
    if (!hasTables.rows[0]?.found) return console.log('The store is not migrated yet: start the server once (npm run serve).');
    await printEmbedded(db);
  });
}

await main();
