import { randomUUID } from 'node:crypto';

import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { insertAsAnon, migrateStore, openStore } from '@/lib/store/pglite';

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
    const row = (await db.query<Record<string, unknown>>('select * from public.support_requests order by created_at desc limit 1'))
      .rows[0]!;
    expect(row).toMatchObject({ ...request, status: 'new' });
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.created_at).toBeInstanceOf(Date);
    // Without a language: '' (the default language), as for a subscriber.
    expect(row.language).toBe('');
  });

  it("records the language of the page it was sent from, or '' for the default language", async () => {
    await insertAsAnon(db, 'support_requests', { ...request, subject: 'En español', language: 'es-MX' });
    await insertAsAnon(db, 'support_requests', { ...request, subject: 'Default', language: '' });
    const { rows } = await db.query<{ subject: string; language: string }>(
      "select subject, language from public.support_requests where subject in ('En español', 'Default') order by subject",
    );
    expect(rows).toEqual([
      { subject: 'Default', language: '' },
      { subject: 'En español', language: 'es-MX' },
    ]);
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
    ['a language tag in other letters', { language: 'ES', subject: 'Language ES' }, 'support_requests_language_tag'],
    ['a language that is not a tag', { language: "es'; drop table x; --", subject: 'Language quote' }, 'support_requests_language_tag'],
  ])('refuses %s', async (_, change, constraint) => {
    const before = await count('support_requests');
    await expect(insertAsAnon(db, 'support_requests', { ...request, ...change })).rejects.toMatchObject({ code: '23514', constraint });
    expect(await count('support_requests')).toBe(before);
  });
});

describe('support_requests: a repeat is stored once', () => {
  const rowsWith = async (subject: string) =>
    (await db.query<{ n: number }>('select count(*)::int as n from public.support_requests where subject = $1', [subject])).rows[0]!.n;
  /** Moves every stored copy of `subject` back in time, as if it had arrived `minutes` ago. */
  async function age(subject: string, minutes: number) {
    await db.query(
      `update public.support_requests set created_at = created_at - make_interval(mins => $2),
         repeat_window = floor(extract(epoch from created_at - make_interval(mins => $2)) / extract(epoch from public.support_request_repeat_window()))
       where subject = $1`,
      [subject, minutes],
    );
  }
  let windowMinutes: number;
  beforeAll(async () => {
    windowMinutes = (await db.query<{ m: number }>('select extract(epoch from public.support_request_repeat_window())::int / 60 as m'))
      .rows[0]!.m;
  });

  it('without a key, the same email, type, subject and message are one request within the window', async () => {
    const same = { ...request, subject: 'Repeat without a key' };
    await insertAsAnon(db, 'support_requests', same);
    await insertAsAnon(db, 'support_requests', same);
    expect(await rowsWith(same.subject)).toBe(1);
    await age(same.subject, windowMinutes - 1);
    await insertAsAnon(db, 'support_requests', same);
    expect(await rowsWith(same.subject)).toBe(1);
  });

  it('after the window the same text is a new request', async () => {
    const same = { ...request, subject: 'Same text, later' };
    await insertAsAnon(db, 'support_requests', same);
    await age(same.subject, windowMinutes + 1);
    await insertAsAnon(db, 'support_requests', same);
    expect(await rowsWith(same.subject)).toBe(2);
  });

  it.each([
    ['another email', { email: 'other.student@example.edu' }],
    ['another type', { type: 'feature' }],
    ['another message', { message: 'Nothing shows near me, still.' }],
  ])('never merges requests with %s', async (_, change) => {
    const subject = `Different ${Math.random()}`;
    await insertAsAnon(db, 'support_requests', { ...request, subject });
    await insertAsAnon(db, 'support_requests', { ...request, subject, ...change });
    expect(await rowsWith(subject)).toBe(2);
  });

  it('keeps the fields apart: a subject ending like the message begins is not the same request', async () => {
    await insertAsAnon(db, 'support_requests', { ...request, subject: 'Split A', message: 'B C' });
    await insertAsAnon(db, 'support_requests', { ...request, subject: 'Split A B', message: 'C' });
    expect((await rowsWith('Split A')) + (await rowsWith('Split A B'))).toBe(2);
  });

  it('with a key, the same form sending the same text is one request even after the window', async () => {
    const keyed = { ...request, subject: 'Keyed repeat', submission_key: randomUUID() };
    await insertAsAnon(db, 'support_requests', keyed);
    await age(keyed.subject, windowMinutes * 6);
    await insertAsAnon(db, 'support_requests', keyed);
    expect(await rowsWith(keyed.subject)).toBe(1);
    const stored = (await db.query('select submission_key from public.support_requests where subject = $1', [keyed.subject])).rows;
    expect(stored).toEqual([{ submission_key: keyed.submission_key }]);
  });

  it('with a key, text edited after a failed attempt is a request of its own', async () => {
    const key = randomUUID();
    await insertAsAnon(db, 'support_requests', { ...request, subject: 'Typo in it', submission_key: key });
    await insertAsAnon(db, 'support_requests', { ...request, subject: 'Typo fixed', submission_key: key });
    expect((await rowsWith('Typo in it')) + (await rowsWith('Typo fixed'))).toBe(2);
  });

  it('a copy that raced past the check is refused by the unique index (the store counts 23505 as success)', async () => {
    const same = { ...request, subject: 'Raced copy' };
    await insertAsAnon(db, 'support_requests', same);
    // As if a second server's insert had not seen the first: triggers off for this one statement's session.
    await expect(
      db.transaction(async (tx) => {
        await tx.exec('set local session_replication_role = replica');
        await tx.query(
          `insert into public.support_requests (email, subject, message, type, content_hash, repeat_window)
           select email, subject, message, type, content_hash, repeat_window from public.support_requests where subject = $1`,
          [same.subject],
        );
      }),
    ).rejects.toMatchObject({ code: '23505' });
  });

  it('the public role may send a key, but not the hash or window the database computes', async () => {
    for (const column of ['content_hash', 'repeat_window']) {
      await expect(
        asAnon(`insert into public.support_requests (email, subject, message, type, ${column}) values ('a@b.co', 's', 'm', 'issue', null)`),
      ).rejects.toMatchObject({ code: '42501' });
    }
    await expect(asAnon('select public.support_request_repeat_window()')).rejects.toMatchObject({ code: '42501' });
  });
});

describe('newsletter_subscribers as anon', () => {
  it('subscribing twice, in any letter case, succeeds and stores one row', async () => {
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'Reader@Example.com' });
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'reader@example.COM' });
    const rows = (await db.query("select email from public.newsletter_subscribers where lower(email) = 'reader@example.com'")).rows;
    expect(rows).toEqual([{ email: 'Reader@Example.com' }]);
  });

  it("records the language of the page signed up on; without one, '' (the default language)", async () => {
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'lector@example.com', language: 'es-MX' });
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'plain@example.com' });
    const { rows } = await db.query<{ email: string; language: string }>(
      "select email, language from public.newsletter_subscribers where email in ('lector@example.com', 'plain@example.com') order by email",
    );
    expect(rows).toEqual([
      { email: 'lector@example.com', language: 'es-MX' },
      { email: 'plain@example.com', language: '' },
    ]);
  });

  it.each([
    ['in other letters', 'ES'],
    ['that is not a tag', "es'; drop table x; --"],
  ])('refuses a language %s', async (_, language) => {
    const before = await count('newsletter_subscribers');
    await expect(insertAsAnon(db, 'newsletter_subscribers', { email: 'bad-language@example.com', language })).rejects.toMatchObject({
      code: '23514',
      constraint: 'newsletter_subscribers_language_tag',
    });
    expect(await count('newsletter_subscribers')).toBe(before);
  });

  it('cannot read, change or delete subscribers', async () => {
    for (const sql of [
      'select email from public.newsletter_subscribers',
      'delete from public.newsletter_subscribers',
      "update public.newsletter_subscribers set email = 'x'",
    ]) {
      await expect(asAnon(sql)).rejects.toMatchObject({ code: '42501' });
    }
  });
});

describe('migrate', () => {
  it('applies each migration once', async () => {
    expect(await migrateStore(db)).toEqual([]);
    const versions = (await db.query<{ version: string }>('select version from public.schema_migrations order by version')).rows;
    expect(versions.map((row) => row.version)).toEqual([
      '20261122000000_support_requests.sql',
      '20261122000100_newsletter_subscribers.sql',
      '20261123000000_support_request_repeats.sql',
      '20261124000000_quotas.sql',
      '20261130000000_mail_outbox.sql',
      '20261130000100_double_opt_in.sql',
      '20261130000200_policy_notices.sql',
      '20261206000000_resubscribe_interval.sql',
      '20261206000100_unsubscribe_token_hashes.sql',
      '20261206000200_support_request_language.sql',
      '20261206000300_subscriber_language.sql',
      '20261207000000_support_request_default_language.sql',
      '20261208000000_back_office.sql',
    ]);
  });
});
