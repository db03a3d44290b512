import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { insertAsAnon, migrateStore, openStore } from '@/lib/support/pglite';

/** The migrations on a real Postgres (PGlite, in memory), exercised as the anon role the public key maps to. */
let db: PGlite;

beforeAll(async () => {
  db = await openStore(undefined);
}, 60_000);
afterAll(async () => db.close());

const request = { email: 'student@example.edu', subject: 'Feed is empty', message: 'Nothing shows near me.', type: 'issue' };

async function asAnon(sql: string, params: unknown[] = []) {
  return db.transaction(async (tx) => {
    await tx.exec('set local role anon');
    return tx.query(sql, params);
  });
}

async function count(table: string): Promise<number> {
  return (await db.query<{ n: number }>(`select count(*)::int as n from public.${table}`)).rows[0]!.n;
}

describe('support_requests as anon', () => {
  it('allows inserting a request, stored with status new', async () => {
    await insertAsAnon(db, 'support_requests', request);
    const row = (await db.query<Record<string, unknown>>('select * from public.support_requests order by created_at desc limit 1')).rows[0]!;
    expect(row).toMatchObject({ ...request, status: 'new' });
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.created_at).toBeInstanceOf(Date);
  });

  it.each([
    ['select', 'select * from public.support_requests'],
    ['update', "update public.support_requests set status = 'done'"],
    ['delete', 'delete from public.support_requests'],
  ])('refuses %s', async (_, sql) => {
    await expect(asAnon(sql)).rejects.toMatchObject({ code: '42501' });
  });

  it('refuses a status other than new, even when the column is named', async () => {
    await expect(
      asAnon("insert into public.support_requests (email, subject, message, type, status) values ('a@b.co', 's', 'm', 'issue', 'closed')"),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it.each([
    ['a bad type', { type: 'bug' }, 'support_requests_type_check'],
    ['an overlong email', { email: `${'a'.repeat(250)}@x.co` }, 'support_requests_email_length'],
    ['an overlong subject', { subject: 's'.repeat(201) }, 'support_requests_subject_length'],
    ['an overlong message', { message: 'm'.repeat(5001) }, 'support_requests_message_length'],
    ['a blank email', { email: '   ' }, 'support_requests_email_not_blank'],
    ['a blank subject', { subject: ' \n ' }, 'support_requests_subject_not_blank'],
    ['a blank message', { message: '' }, 'support_requests_message_not_blank'],
  ])('refuses %s', async (_, change, constraint) => {
    const before = await count('support_requests');
    await expect(insertAsAnon(db, 'support_requests', { ...request, ...change })).rejects.toMatchObject({ code: '23514', constraint });
    expect(await count('support_requests')).toBe(before);
  });
});

describe('newsletter_subscribers as anon', () => {
  it('subscribing twice, in any letter case, succeeds and stores one row', async () => {
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'Reader@Example.com' });
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'reader@example.COM' });
    const rows = (await db.query("select email from public.newsletter_subscribers where lower(email) = 'reader@example.com'")).rows;
    expect(rows).toEqual([{ email: 'Reader@Example.com' }]);
  });

  it('cannot read, change or delete subscribers', async () => {
    for (const sql of ['select email from public.newsletter_subscribers', 'delete from public.newsletter_subscribers', "update public.newsletter_subscribers set email = 'x'"]) {
      await expect(asAnon(sql)).rejects.toMatchObject({ code: '42501' });
    }
  });
});

describe('migrate', () => {
  it('applies each migration once', async () => {
    expect(await migrateStore(db)).toEqual([]);
    const versions = (await db.query<{ version: string }>('select version from public.schema_migrations order by version')).rows;
    expect(versions.map((row) => row.version)).toEqual(['20261122000000_support_requests.sql', '20261122000100_newsletter_subscribers.sql']);
  });
});
