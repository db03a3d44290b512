import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { FunctionArgs, StoreFunction } from '@/lib/store/database.types';
import { callAs, insertAsAnon, openStore, type CallRole } from '@/lib/store/pglite';
import { preparedDataDir, storeDir } from '@/testkit/store';

/**
 * The subscription's rules on a real Postgres (PGlite, in memory) with every migration: a
 * sign-up as the public key's anon role makes, the two links it may follow, and the service role's
 * outbox and notices, as the app's senders and the announcement call them.
 */
let db: PGlite;
let dir: string;

beforeAll(async () => {
  // A copy of the migrated template: quicker than migrating a new database (testkit/store.ts).
  dir = await preparedDataDir(await mkdtemp(path.join(tmpdir(), 'subscriptions-')));
  db = await openStore(storeDir(dir), { fsync: false });
}, 60_000);
afterAll(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.exec(`
    truncate public.newsletter_subscribers, private.policy_announcements cascade;
    delete from private.quota_counters;
    update private.quota_limits set site_max = 1000000, client_max = 1000000;
  `);
});

const signUp = (email: string) => insertAsAnon(db, 'newsletter_subscribers', { email });
const call = <F extends StoreFunction>(role: CallRole, fn: F, args: FunctionArgs<F>) => callAs(db, role, fn, args);
const confirm = (token: string) => call('anon', 'confirm_subscription', { token });
const unsubscribe = (token: string) => call('anon', 'unsubscribe', { token });

async function rows<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(sql, params)).rows;
}

type Subscriber = { id: string; status: string; confirmed_at: Date | null; language: string };
const subscriber = async (email: string) =>
  (await rows<Subscriber>('select * from public.newsletter_subscribers where lower(email) = lower($1)', [email]))[0];

/** A new unsubscribe link's token for `email`, as the sender gets one with each email it claims. */
const unsubscribeToken = async (email: string) =>
  (await rows<{ token: string }>('select private.unsubscribe_link($1) as token', [(await subscriber(email))!.id]))[0]!.token;

/** The confirmation links queued for `email`, oldest first. */
const confirmations = async (email: string) =>
  rows<{ ref: string; status: string; token: string | null }>(
    `select o.ref, o.status, o.token from private.mail_outbox o join public.newsletter_subscribers s on s.id = o.subscriber_id
      where o.kind = 'confirmation' and lower(s.email) = lower($1) order by o.id`,
    [email],
  );

const latestToken = async (email: string) => (await confirmations(email)).at(-1)!.token!;

/** As if `email`'s last confirmation had been asked for `hours` earlier. */
const age = (email: string, hours: number) =>
  db.query(
    `update public.newsletter_subscribers set confirmation_requested_at = confirmation_requested_at - make_interval(hours => $2)
      where lower(email) = lower($1)`,
    [email, hours],
  );

/** As if `email` had unsubscribed, and last been asked to confirm, `hours` earlier than it did. */
const ageAll = (email: string, hours: number) =>
  db.query(
    `update public.newsletter_subscribers set confirmation_requested_at = confirmation_requested_at - make_interval(hours => $2),
      unsubscribed_at = unsubscribed_at - make_interval(hours => $2) where lower(email) = lower($1)`,
    [email, hours],
  );

/** A token of the right form that the database never made. */
const forged = () => randomBytes(32).toString('base64url');

async function confirmed(email: string) {
  await signUp(email);
  expect(await confirm(await latestToken(email))).toBe('confirmed');
}

describe('double opt-in', () => {
  it('a sign-up stores the address pending and queues one confirmation; the row keeps only the hash of its 32-byte token', async () => {
    await signUp('new@example.com');
    expect(await subscriber('new@example.com')).toMatchObject({ status: 'pending', confirmed_at: null });
    const [queued] = await confirmations('new@example.com');
    expect(queued).toMatchObject({ ref: '1', status: 'queued', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(Buffer.from(queued!.token!, 'base64url')).toHaveLength(32);
    const [hashes] = await rows<{ stored: string; hashed: string }>(
      `select encode(confirm_token_hash, 'hex') as stored, encode(sha256(convert_to($1, 'UTF8')), 'hex') as hashed
         from public.newsletter_subscribers where email = 'new@example.com'`,
      [queued!.token],
    );
    expect(hashes!.stored).toBe(hashes!.hashed);
    expect(hashes!.stored).not.toContain(queued!.token);
  });

  it('one confirmation a day, however often and in whatever letter case the address is entered; a new one replaces the last link', async () => {
    for (const email of ['Daily@Example.com', 'daily@example.com', 'DAILY@EXAMPLE.COM', 'daily@example.com']) await signUp(email);
    expect(await confirmations('daily@example.com')).toHaveLength(1);
    const first = await latestToken('daily@example.com');
    await age('daily@example.com', 23);
    await signUp('daily@example.com');
    expect(await confirmations('daily@example.com')).toHaveLength(1);
    await age('daily@example.com', 2);
    await signUp('daily@example.com');
    expect((await confirmations('daily@example.com')).map(({ ref, status }) => [ref, status])).toEqual([
      ['1', 'cancelled'],
      ['2', 'queued'],
    ]);
    expect(await confirm(first)).toBe('invalid');
    expect(await confirm(await latestToken('daily@example.com'))).toBe('confirmed');
    expect(await rows('select 1 from public.newsletter_subscribers')).toHaveLength(1);
  });

  it('a link confirms once: the same link again answers "confirmed" and changes nothing', async () => {
    await confirmed('twice@example.com');
    const before = await subscriber('twice@example.com');
    expect(await confirm(await latestToken('twice@example.com'))).toBe('confirmed');
    expect(await subscriber('twice@example.com')).toEqual(before);
  });

  it.each([
    ['forged', forged()],
    ['empty', ''],
    ['too short', 'abc'],
    ['too long', `${forged()}x`],
    ['not base64url', `${forged().slice(0, 42)}/`],
    ['SQL', "' or 1=1 --"],
  ])('a %s token answers "invalid" to both links and changes nothing', async (_, token) => {
    await signUp('kept@example.com');
    const before = await rows('select * from public.newsletter_subscribers');
    expect(await confirm(token)).toBe('invalid');
    expect(await unsubscribe(token)).toBe('invalid');
    expect(await rows('select * from public.newsletter_subscribers')).toEqual(before);
  });

  it('a link older than 7 days answers "expired" and confirms nothing', async () => {
    await signUp('late@example.com');
    await age('late@example.com', 7 * 24 + 1);
    expect(await confirm(await latestToken('late@example.com'))).toBe('expired');
    expect(await subscriber('late@example.com')).toMatchObject({ status: 'pending', confirmed_at: null });
  });

  it('after an unsubscribe, the confirmation link answers "used" and never subscribes again', async () => {
    await confirmed('gone@example.com');
    const token = await latestToken('gone@example.com');
    expect(await unsubscribe(await unsubscribeToken('gone@example.com'))).toBe('unsubscribed');
    expect(await confirm(token)).toBe('used');
    expect(await subscriber('gone@example.com')).toMatchObject({ status: 'unsubscribed' });
  });

  it('unsubscribe needs no sign-in, works from any email for as long as the row exists, and a second time changes nothing', async () => {
    await confirmed('leaving@example.com');
    const token = await unsubscribeToken('leaving@example.com');
    expect(await unsubscribe(token)).toBe('unsubscribed');
    const after = await subscriber('leaving@example.com');
    expect(after).toMatchObject({ status: 'unsubscribed' });
    expect(await unsubscribe(token)).toBe('unsubscribed');
    expect(await subscriber('leaving@example.com')).toEqual(after);
  });

  it('a pending address may unsubscribe from its confirmation: it is then written to again only when it signs up itself', async () => {
    await signUp('not-me@example.com');
    expect(await unsubscribe(await unsubscribeToken('not-me@example.com'))).toBe('unsubscribed');
    expect(await confirmations('not-me@example.com')).toMatchObject([{ status: 'cancelled', token: null }]);
    await signUp('not-me@example.com');
    expect(await confirmations('not-me@example.com')).toHaveLength(1);
  });

  it('a confirmed address entered again gets no mail; an unsubscribed one is asked to confirm again, and if it does not within 7 days stays unsubscribed', async () => {
    await confirmed('again@example.com');
    await age('again@example.com', 48);
    await signUp('again@example.com');
    expect(await confirmations('again@example.com')).toHaveLength(1);
    await unsubscribe(await unsubscribeToken('again@example.com'));
    await ageAll('again@example.com', 90 * 24 + 1);
    await signUp('again@example.com');
    expect(await subscriber('again@example.com')).toMatchObject({ status: 'pending' });
    expect(await confirmations('again@example.com')).toHaveLength(2);
    await age('again@example.com', 7 * 24 + 1);
    expect(await call('service_role', 'mail_purge', { max_rows: 100 })).toBe(1);
    expect(await subscriber('again@example.com')).toMatchObject({ status: 'unsubscribed' });
  });

  it('an unsubscribed address signed up again by anyone gets one confirmation in 90 days, however often it is entered', async () => {
    await confirmed('left@example.com');
    await unsubscribe(await unsubscribeToken('left@example.com'));
    let aged = 0;
    for (const days of [1, 2, 30, 89]) {
      await ageAll('left@example.com', (days - aged) * 24);
      aged = days;
      await signUp('left@example.com');
      expect(await confirmations('left@example.com'), `day ${days}`).toHaveLength(1);
    }
    await ageAll('left@example.com', 24 + 1);
    await signUp('left@example.com');
    expect(await confirmations('left@example.com')).toHaveLength(2);
    // Asked again and not confirmed: the next sign-up a day later still waits the long interval.
    await ageAll('left@example.com', 25);
    await signUp('left@example.com');
    expect(await confirmations('left@example.com')).toHaveLength(2);
  });

  it('unconfirmed addresses are forgotten after 7 days, ten with each sign-up and the rest by the senders’ sweep; confirmed ones stay', async () => {
    for (let n = 0; n < 15; n++) await signUp(`old${n}@example.com`);
    await confirmed('stays@example.com');
    await db.query(`update public.newsletter_subscribers set confirmation_requested_at = now() - interval '8 days'`);
    await signUp('fresh@example.com');
    const left = async () =>
      (await rows<{ n: number }>(`select count(*)::int as n from public.newsletter_subscribers where email like 'old%'`))[0]!.n;
    expect(await left()).toBe(5);
    expect(await call('service_role', 'mail_purge', { max_rows: 1000 })).toBe(5);
    expect(await left()).toBe(0);
    expect(
      await rows(
        `select o.id from private.mail_outbox o left join public.newsletter_subscribers s on s.id = o.subscriber_id where s.id is null`,
      ),
    ).toEqual([]);
    expect(await subscriber('stays@example.com')).toMatchObject({ status: 'confirmed' });
    expect(await subscriber('fresh@example.com')).toMatchObject({ status: 'pending' });
  });

  it("an unconfirmed address's sign-up takes the language of the page it came from; a confirmed one keeps its own", async () => {
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'Lang@example.com', language: 'es' });
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'lang@EXAMPLE.com', language: 'fr-CA' });
    expect(await subscriber('lang@example.com')).toMatchObject({ status: 'pending', language: 'fr-CA' });
    // A sign-up that names none (an older page's form) keeps the language known.
    await signUp('lang@example.com');
    expect(await subscriber('lang@example.com')).toMatchObject({ language: 'fr-CA' });
    // Confirmed, its language is its owner's: anyone may enter the address on another page.
    await confirm(await latestToken('lang@example.com'));
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'lang@example.com', language: 'es' });
    expect(await subscriber('lang@example.com')).toMatchObject({ status: 'confirmed', language: 'fr-CA' });
    expect(await confirmations('lang@example.com')).toHaveLength(1);
  });

  it('the public key reads nothing (no address, token, notice or outbox row), chooses no state, and calls only the two links', async () => {
    await confirmed('secret@example.com');
    const refused = async (sql: string) =>
      expect(
        db.transaction(async (tx) => {
          await tx.exec('set local role anon');
          await tx.query(sql);
        }),
        sql,
      ).rejects.toMatchObject({ code: '42501' });
    for (const sql of [
      'select email from public.newsletter_subscribers',
      'select * from private.unsubscribe_tokens',
      'select private.unsubscribe_link(gen_random_uuid())',
      'select * from private.mail_outbox',
      'select * from private.policy_announcements',
      "update public.newsletter_subscribers set status = 'confirmed'",
      "insert into public.newsletter_subscribers (email, status) values ('x@example.com', 'confirmed')",
      'select private.new_token()',
    ]) {
      await refused(sql);
    }
    const service: [StoreFunction, Record<string, unknown>][] = [
      ['mail_claim', { worker: 'w', max_rows: 10, lease_seconds: 60, max_attempts: 8 }],
      ['mail_sent', { outbox_id: 1, message_id: 'm', smtp_response: '' }],
      ['mail_failed', { outbox_id: 1, attempt: 1, error: 'e', retry_seconds: 0, give_up: true }],
      ['mail_next_due', {}],
      ['mail_purge', { max_rows: 10 }],
      ['mail_announce', { version_date: '2027-01-01', summary: '', announced_at: new Date().toISOString() }],
      ['mail_withdraw', { version_date: '2027-01-01' }],
      ['notice_summary', {}],
    ];
    for (const [fn, args] of service) await expect(callAs(db, 'anon', fn, args as never), fn).rejects.toMatchObject({ code: '42501' });
  });
});

const claim = (worker: string, maxRows = 100, maxAttempts = 8) =>
  call('service_role', 'mail_claim', { worker, max_rows: maxRows, lease_seconds: 60, max_attempts: maxAttempts });
const announce = (date: string, summary = 'What changes.') =>
  call('service_role', 'mail_announce', { version_date: date, summary, announced_at: new Date().toISOString() });
const notices = (date: string) =>
  rows<{ status: string; attempts: number; claimed_by: string | null }>(
    `select status, attempts, claimed_by from private.mail_outbox where kind = 'notice' and ref = $1 order by id`,
    [date],
  );
/** As if every lease had run out. */
const expireLeases = () => db.query(`update private.mail_outbox set lease_until = now() - interval '1 second' where status = 'sending'`);

describe('notices through the outbox', () => {
  beforeEach(async () => {
    for (const name of ['ada', 'grace', 'linus']) await confirmed(`${name}@example.com`);
    await signUp('pending@example.com');
    await confirmed('left@example.com');
    await unsubscribe(await unsubscribeToken('left@example.com'));
    // The confirmations are sent: only notices are left to claim.
    await db.query(`update private.mail_outbox set status = 'sent', sent_at = now(), token = null where kind = 'confirmation'`);
  });

  it('each claimed email has an unsubscribe token of its own, stored only as its hash: a copy of the tables unsubscribes no one', async () => {
    await announce('2027-01-01');
    const first = (await claim('w')).filter((row) => row.email === 'ada@example.com');
    await expireLeases();
    const again = (await claim('w')).filter((row) => row.email === 'ada@example.com');
    const tokens = [...first, ...again].map((row) => row.unsubscribe_token!);
    expect(tokens).toHaveLength(2);
    expect(new Set(tokens).size).toBe(2);
    for (const token of tokens) {
      const stored = await rows(
        `select 1 from public.newsletter_subscribers s, private.unsubscribe_tokens t, private.mail_outbox o
          where s::text like '%' || $1 || '%' or t::text like '%' || $1 || '%' or o::text like '%' || $1 || '%'`,
        [token],
      );
      expect(stored).toEqual([]);
    }
    expect(await unsubscribe(tokens[0]!)).toBe('unsubscribed');
    expect(await subscriber('ada@example.com')).toMatchObject({ status: 'unsubscribed' });
    expect(await unsubscribe(tokens[1]!)).toBe('unsubscribed');
  });

  it("each claimed email comes with its subscriber's language ('' for the default language)", async () => {
    // Confirmed already: as if she had signed up on the Spanish page (a confirmed address keeps its language).
    await db.query(`update public.newsletter_subscribers set language = 'es' where email = 'grace@example.com'`);
    await announce('2027-01-01');
    const languages = Object.fromEntries((await claim('w')).map((row) => [row.email, row.language]));
    expect(languages).toEqual({ 'ada@example.com': '', 'grace@example.com': 'es', 'linus@example.com': '' });
  });

  it('an announcement queues one notice per subscriber confirmed now, once, however often and from however many callers', async () => {
    const queued = await Promise.all(Array.from({ length: 5 }, () => announce('2027-01-01')));
    expect(queued.sort()).toEqual([0, 0, 0, 0, 3]);
    expect(await announce('2027-01-01')).toBe(0);
    expect(await notices('2027-01-01')).toHaveLength(3);
    await confirmed('later@example.com');
    expect(await announce('2027-01-01')).toBe(0);
    expect(await notices('2027-01-01')).toHaveLength(3);
    expect(await announce('2027-02-01')).toBe(4);
  });

  it('two senders never claim the same message; a lease that runs out is claimed again, as attempt 2', async () => {
    await announce('2027-01-01');
    const first = await claim('sender-a', 2);
    const second = await claim('sender-b', 10);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(1);
    expect(new Set([...first, ...second].map((row) => row.outbox_id)).size).toBe(3);
    expect(await claim('sender-b')).toEqual([]);
    await expireLeases();
    const again = await claim('sender-b');
    expect(again.map((row) => row.attempt)).toEqual([2, 2, 2]);
    expect(again[0]).toMatchObject({
      kind: 'notice',
      ref: '2027-01-01',
      summary: 'What changes.',
      email: expect.stringMatching(/@example\.com$/),
    });
  });

  it('a failure comes back after the delay the sender gives; a final one, or one past the last attempt, is failed', async () => {
    await announce('2027-01-01');
    const [a, b] = await claim('sender-a', 2);
    await call('service_role', 'mail_failed', {
      outbox_id: a!.outbox_id!,
      attempt: 1,
      error: '421 try later',
      retry_seconds: 60,
      give_up: false,
    });
    await call('service_role', 'mail_failed', {
      outbox_id: b!.outbox_id!,
      attempt: 1,
      error: '550 no such user',
      retry_seconds: 0,
      give_up: true,
    });
    expect((await claim('sender-a')).map((row) => row.outbox_id)).not.toContain(a!.outbox_id);
    const due = await call('service_role', 'mail_next_due', {});
    expect(due).toBeGreaterThan(0);
    await db.query(`update private.mail_outbox set next_attempt_at = now() where id = $1`, [a!.outbox_id]);
    expect((await claim('sender-a')).map((row) => [row.outbox_id, row.attempt])).toEqual([[a!.outbox_id, 2]]);
    expect((await rows<{ status: string }>(`select status from private.mail_outbox where id = $1`, [b!.outbox_id]))[0]!.status).toBe(
      'failed',
    );
  });

  it('a lease that runs out on the last attempt fails the message instead of sending it again', async () => {
    await announce('2027-01-01');
    await claim('sender-a', 100, 1);
    await expireLeases();
    expect(await claim('sender-b', 100, 1)).toEqual([]);
    expect((await notices('2027-01-01')).map((row) => row.status)).toEqual(['failed', 'failed', 'failed']);
  });

  it('a late report from a sender whose lease ran out changes nothing: the message stays with the sender holding it', async () => {
    await announce('2027-01-01');
    const [held] = await claim('sender-a', 1);
    await expireLeases();
    await claim('sender-b', 1);
    await call('service_role', 'mail_failed', { outbox_id: held!.outbox_id!, attempt: 1, error: 'late', retry_seconds: 0, give_up: false });
    expect(await rows(`select status, attempts, claimed_by from private.mail_outbox where id = $1`, [held!.outbox_id])).toEqual([
      { status: 'sending', attempts: 2, claimed_by: 'sender-b' },
    ]);
  });

  it('a sent message keeps its Message-ID and the time it was first recorded', async () => {
    await announce('2027-01-01');
    const [row] = await claim('sender-a', 1);
    const args = { outbox_id: row!.outbox_id!, message_id: '<notice@example.com>', smtp_response: '250 queued' };
    await call('service_role', 'mail_sent', args);
    const [first] = await rows<{ sent_at: Date }>('select sent_at from private.mail_outbox where id = $1', [row!.outbox_id]);
    await call('service_role', 'mail_sent', { ...args, smtp_response: '250 again' });
    expect(
      await rows('select status, sent_at, message_id, smtp_response, token from private.mail_outbox where id = $1', [row!.outbox_id]),
    ).toEqual([{ status: 'sent', sent_at: first!.sent_at, message_id: '<notice@example.com>', smtp_response: '250 queued', token: null }]);
  });

  it('a withdrawal cancels the notices not sent yet, keeps those sent, and an unsubscribe cancels that subscriber’s', async () => {
    await announce('2027-01-01');
    const [sent] = await claim('sender-a', 1);
    await call('service_role', 'mail_sent', { outbox_id: sent!.outbox_id!, message_id: '<m>', smtp_response: '250' });
    await unsubscribe(await unsubscribeToken('ada@example.com'));
    expect(await call('service_role', 'mail_withdraw', { version_date: '2027-01-01' })).toBeLessThanOrEqual(2);
    expect(await call('service_role', 'mail_withdraw', { version_date: '2027-01-01' })).toBe(0);
    expect((await notices('2027-01-01')).map((row) => row.status).sort()).toEqual(['cancelled', 'cancelled', 'sent']);
    expect(await claim('sender-a')).toEqual([]);
    expect(await call('service_role', 'notice_summary', {})).toMatchObject([
      { version_date: '2027-01-01', told: 1, pending: 0, failed: 0, cancelled: 2, withdrawn_at: expect.any(String) },
    ]);
  });

  it('a version announced again after its withdrawal is active again: still one notice per confirmed subscriber', async () => {
    await announce('2027-01-01');
    await call('service_role', 'mail_withdraw', { version_date: '2027-01-01' });
    await unsubscribe(await unsubscribeToken('grace@example.com'));
    expect(await announce('2027-01-01')).toBe(2);
    expect((await notices('2027-01-01')).map((row) => row.status).sort()).toEqual(['cancelled', 'queued', 'queued']);
    expect(await announce('2027-01-01')).toBe(0);
  });

  it('the summary says, per version, how many were told and when, and what is pending or failed', async () => {
    expect(await call('service_role', 'mail_next_due', {})).toBeNull();
    await announce('2027-01-01');
    await announce('2027-03-01');
    const [a, b] = await claim('sender-a', 2);
    for (const row of [a!, b!])
      await call('service_role', 'mail_sent', { outbox_id: row.outbox_id!, message_id: '<m>', smtp_response: '250' });
    const summary = await call('service_role', 'notice_summary', {});
    expect(summary.map(({ version_date, told, pending }) => ({ version_date, told, pending }))).toEqual([
      { version_date: '2027-03-01', told: 0, pending: 3 },
      { version_date: '2027-01-01', told: 2, pending: 1 },
    ]);
    expect(summary[1]).toMatchObject({ first_sent: expect.any(String), last_sent: expect.any(String), failed: 0 });
  });
});
