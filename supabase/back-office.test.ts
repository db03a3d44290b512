import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import type { FunctionArgs, StoreFunction } from '@/lib/store/database.types';
import { CursorError } from '@/lib/store/page-cursor';
import { callAs, insertAsAnon, openStore } from '@/lib/store/pglite';
import { preparedDataDir, storeDir } from '@/testkit/store';

/**
 * The back office's store (supabase/migrations/*_back_office.sql) on a real Postgres (PGlite) with every
 * migration, through lib/store/back-office.ts as the server calls it: its backend is this database, as the
 * service role, as the secret key is on either path.
 */
let db: PGlite;
let dir: string;

vi.mock('@/lib/store/backend', () => ({
  backend: () => ({ call: (fn: string, args: Record<string, unknown>) => callAs(db, 'service_role', fn as never, args as never) }),
}));
const office = await import('@/lib/store/back-office');

beforeAll(async () => {
  dir = await preparedDataDir(await mkdtemp(path.join(tmpdir(), 'back-office-')));
  db = await openStore(storeDir(dir), { fsync: false });
}, 60_000);
afterAll(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.exec(`
    truncate public.support_requests, public.newsletter_subscribers, private.policy_announcements, private.notice_erased,
      private.erasure_log, private.office_access_log cascade;
    delete from private.quota_counters;
    update private.quota_limits set site_max = 1000000, client_max = 1000000;
  `);
});

const call = <F extends StoreFunction>(fn: F, args: FunctionArgs<F>) => callAs(db, 'service_role', fn, args);
const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows;
/** The server's HMAC of an address (lib/back-office does this with its own key). */
const hmac = (email: string) => createHmac('sha256', 'test key').update(email.trim().toLowerCase()).digest('hex');

let sent = 0;
/** A request as the support form stores it, `minutesAgo` minutes old. */
async function request(email: string, fields: { type?: string; language?: string; minutesAgo?: number } = {}) {
  sent += 1;
  const { rows: made } = await db.query<{ id: string }>(
    `insert into public.support_requests (email, subject, message, type, language, created_at)
      values ($1, $2, 'Text.', $3, $4, now() - make_interval(mins => $5)) returning id`,
    [email, `Request ${sent}`, fields.type ?? 'issue', fields.language ?? '', fields.minutesAgo ?? 0],
  );
  return made[0]!.id;
}

async function confirmed(email: string) {
  await insertAsAnon(db, 'newsletter_subscribers', { email });
  const [{ token }] = (await rows<{ token: string }>(
    `select o.token from private.mail_outbox o join public.newsletter_subscribers s on s.id = o.subscriber_id
      where lower(s.email) = lower($1) and o.kind = 'confirmation' order by o.id desc limit 1`,
    [email],
  )) as [{ token: string }];
  expect(await callAs(db, 'anon', 'confirm_subscription', { token })).toBe('confirmed');
  await db.query(`update private.mail_outbox set status = 'sent', sent_at = now(), token = null where kind = 'confirmation'`);
}

const announce = (date: string) =>
  call('mail_announce', { version_date: date, summary: 'What changes.', announced_at: new Date().toISOString() });
const claim = (maxRows = 100) => call('mail_claim', { worker: 'sender', max_rows: maxRows, lease_seconds: 60, max_attempts: 8 });
const markSent = (id: number) => call('mail_sent', { outbox_id: id, message_id: '<m@example.com>', smtp_response: '250 ok' });

/** Every page of `filter`, `limit` rows at a time. */
async function allPages(filter: Parameters<typeof office.listRequests>[0], limit: number) {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof office.listRequests>> = await office.listRequests(filter, cursor, limit);
    pages.push(page.rows.map((row) => row.subject));
    cursor = page.next;
  } while (cursor);
  return pages;
}

describe('requests', () => {
  it('pages newest first by keyset, each row once, ties by id, and no cursor after the last page', async () => {
    for (let n = 0; n < 7; n++) await request(`p${n}@example.com`, { minutesAgo: 7 - n });
    // Three at the same instant: the id orders them, and no page boundary loses or repeats one.
    await db.query(
      `update public.support_requests set created_at = date_trunc('minute', now()) where subject in ('Request 2', 'Request 3', 'Request 4')`,
    );
    const pages = await allPages({}, 3);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    const all = await rows<{ subject: string }>('select subject from public.support_requests order by created_at desc, id desc');
    expect(pages.flat()).toEqual(all.map((row) => row.subject));
    expect((await office.listRequests({}, null, 7)).next).toBeNull();
  });

  it('filters by type, language and status, and finds an address by its beginning in any letter case', async () => {
    await request('Ana.Lopez@Example.com', { type: 'feedback', language: 'es' });
    await request('ana_b@example.com', { type: 'issue' });
    await request('anaXb@example.com', { type: 'issue', language: 'es' });
    await request('bo@example.com', { type: 'feature', language: 'es-MX' });
    const subjects = async (filter: Parameters<typeof office.listRequests>[0]) =>
      (await office.listRequests(filter, null, 50)).rows.map((row) => row.email).sort();
    expect(await subjects({ type: 'issue' })).toEqual(['anaXb@example.com', 'ana_b@example.com']);
    expect(await subjects({ language: '' })).toEqual(['ana_b@example.com']);
    expect(await subjects({ language: 'es' })).toEqual(['Ana.Lopez@Example.com', 'anaXb@example.com']);
    expect(await subjects({ email: 'ANA' })).toEqual(['Ana.Lopez@Example.com', 'anaXb@example.com', 'ana_b@example.com']);
    // No wildcards: "_" and "%" are letters of an address.
    expect(await subjects({ email: 'ana_' })).toEqual(['ana_b@example.com']);
    expect(await subjects({ email: 'a%' })).toEqual([]);
    expect(await subjects({ email: 'ana', language: 'es', type: 'feedback' })).toEqual(['Ana.Lopez@Example.com']);
    const [first] = (await office.listRequests({ email: 'bo@' }, null, 1)).rows;
    expect(first).toMatchObject({ language: 'es-MX', status: 'new', answeredAt: null, createdAt: expect.stringMatching(/\.\d{6}Z$/) });
  });

  it('refuses a cursor it did not give, and a page of no rows or too many', async () => {
    for (const cursor of ['x', Buffer.from('{"at":"1","id":"2"}').toString('base64url'), Buffer.from('[]').toString('base64url')])
      await expect(office.listRequests({}, cursor, 10)).rejects.toBeInstanceOf(CursorError);
    await expect(office.listRequests({}, null, 0)).rejects.toBeInstanceOf(RangeError);
    await expect(office.listRequests({}, null, office.MAX_PAGE_ROWS + 1)).rejects.toBeInstanceOf(RangeError);
  });

  it('marks a request answered recording who and when, keeps the first answer, reopens it, and filters by status', async () => {
    const id = await request('parent@example.com');
    await request('other@example.com');
    const answered = await office.markRequest(id, true, 'u1 Ada Editor');
    expect(answered).toMatchObject({ id, status: 'answered', answeredBy: 'u1 Ada Editor', answeredAt: expect.stringMatching(/Z$/) });
    expect(await office.markRequest(id, true, 'u2 Other')).toEqual(answered);
    expect((await office.listRequests({ status: 'answered' }, null, 10)).rows.map((row) => row.id)).toEqual([id]);
    expect(await office.markRequest(id, false, 'u2 Other')).toMatchObject({ status: 'new', answeredAt: null, answeredBy: null });
    expect((await office.listRequests({ status: 'new' }, null, 10)).rows).toHaveLength(2);
    expect(await office.markRequest('00000000-0000-4000-8000-000000000000', true, 'u1')).toBeNull();
    await expect(db.query(`update public.support_requests set status = 'answered' where id = $1`, [id])).rejects.toMatchObject({
      code: '23514',
    });
  });
});

describe('subscribers and notices', () => {
  it('counts subscribers by state and language, and looks one address up in any letter case', async () => {
    await confirmed('one@example.com');
    await confirmed('two@example.com');
    await insertAsAnon(db, 'newsletter_subscribers', { email: 'three@example.com', language: 'es' });
    expect(await office.subscriberCounts()).toEqual([
      { status: 'confirmed', language: '', count: 2 },
      { status: 'pending', language: 'es', count: 1 },
    ]);
    expect(await office.findSubscriber('ONE@example.com')).toMatchObject({
      email: 'one@example.com',
      status: 'confirmed',
      confirmedAt: expect.any(String),
    });
    expect(await office.findSubscriber('nobody@example.com')).toBeNull();
  });

  it('counts each version told, pending, failed and cancelled, and lists its recipients page by page', async () => {
    for (const name of ['a', 'b', 'c', 'd']) await confirmed(`${name}@example.com`);
    await announce('2027-01-01');
    const [first, second, third, fourth] = (await claim()).map((row) => row.outbox_id!).sort((a, b) => a - b);
    await markSent(first!);
    await markSent(second!);
    await call('mail_failed', { outbox_id: third!, attempt: 1, error: '550', retry_seconds: 0, give_up: true });
    await call('mail_failed', { outbox_id: fourth!, attempt: 1, error: '421', retry_seconds: 60, give_up: false });
    const [version] = await office.noticeVersions();
    expect(version).toMatchObject({ date: '2027-01-01', told: 2, pending: 1, failed: 1, cancelled: 0, firstSent: expect.any(String) });
    const page = await office.noticeRecipients('2027-01-01', null, 3);
    expect(page.rows.map((row) => row.status)).toEqual(['sent', 'sent', 'failed']);
    const rest = await office.noticeRecipients('2027-01-01', page.next, 3);
    expect(rest).toEqual({ rows: [{ email: expect.stringMatching(/^[a-d]@example\.com$/), status: 'pending', sentAt: null }], next: null });
  });
});

/** Every row in the store that names `email`, in any table, as text. */
const mentions = (email: string) =>
  rows(
    `select 'subscriber' from public.newsletter_subscribers s where s::text ilike '%' || $1 || '%'
     union all select 'request' from public.support_requests r where r::text ilike '%' || $1 || '%'
     union all select 'outbox' from private.mail_outbox o where o::text ilike '%' || $1 || '%'
     union all select 'erased' from private.notice_erased e where e::text ilike '%' || $1 || '%'
     union all select 'erasure log' from private.erasure_log l where l::text ilike '%' || $1 || '%'
     union all select 'access log' from private.office_access_log a where a::text ilike '%' || $1 || '%'`,
    [email],
  );

describe('erasure', () => {
  beforeEach(async () => {
    for (const name of ['parent', 'other']) await confirmed(`${name}@example.com`);
    await request('Parent@Example.com', { language: 'es' });
    await request('parent@example.com');
    await request('other@example.com');
    await announce('2027-01-01');
    for (const row of await claim()) await markSent(row.outbox_id!);
    await announce('2027-03-01');
  });

  it('removes the address from every table in one go, keeps the counts, and still answers "told" by its HMAC', async () => {
    const before = await office.noticeVersions();
    expect(await office.personData('PARENT@example.com')).toMatchObject({
      requests: [{ language: '' }, { language: 'es' }],
      subscription: { status: 'confirmed' },
      emails: [
        { kind: 'confirmation' },
        { kind: 'notice', ref: '2027-01-01', status: 'sent' },
        { kind: 'notice', ref: '2027-03-01', status: 'queued' },
      ],
    });
    const toldBefore = await office.wasTold('2027-01-01', 'parent@example.com', hmac('parent@example.com'));
    expect(toldBefore).toEqual({ told: true, sentAt: expect.stringMatching(/Z$/), erased: false });

    const erased = await office.erasePerson('Parent@example.com', hmac('parent@example.com'), 'u1 Ada Editor');
    expect(erased).toEqual({ kind: 'erased', rows: { subscribers: 1, tokens: 1, emails: 3, requests: 2, noticesKept: 2 } });
    expect(await mentions('parent@example.com')).toEqual([]);
    expect(await office.personData('parent@example.com')).toBeNull();
    // Every notice still counted: the one sent as told, the one still queued as cancelled, since it never will be sent.
    const queued = before.find(({ date }) => date === '2027-03-01')!;
    expect(await office.noticeVersions()).toEqual(
      before.map((version) => (version === queued ? { ...queued, pending: queued.pending - 1, cancelled: queued.cancelled + 1 } : version)),
    );
    // Asked in another letter case, it is the same address: the HMAC is of the lower-cased one.
    const told = await office.wasTold('2027-01-01', 'Parent@Example.com', hmac('Parent@Example.com'));
    expect(told).toEqual({ ...toldBefore, erased: true });
    expect(await office.wasTold('2027-03-01', 'parent@example.com', hmac('parent@example.com'))).toEqual({
      told: false,
      sentAt: null,
      erased: true,
    });
    expect(await office.wasTold('2027-01-01', 'stranger@example.com', hmac('stranger@example.com'))).toEqual({
      told: false,
      sentAt: null,
      erased: false,
    });
    // The erased notice stays in the list of recipients, without its address.
    const recipients = (await office.noticeRecipients('2027-01-01', null, 10)).rows;
    expect(recipients.map((row) => row.email)).toEqual(expect.arrayContaining([null, 'other@example.com']));
    expect(await rows('select actor, subscribers, tokens, emails, requests, notices_kept from private.erasure_log')).toEqual([
      { actor: 'u1 Ada Editor', subscribers: 1, tokens: 1, emails: 3, requests: 2, notices_kept: 2 },
    ]);
    // The others' data is untouched.
    expect(await office.personData('other@example.com')).toMatchObject({ requests: [{}], subscription: { status: 'confirmed' } });
  });

  it('erasing twice is harmless, and an address that holds nothing gets nothing-held and no log row', async () => {
    await office.erasePerson('parent@example.com', hmac('parent@example.com'), 'u1');
    const versions = await office.noticeVersions();
    expect(await office.erasePerson('parent@example.com', hmac('parent@example.com'), 'u1')).toEqual({ kind: 'nothing-held' });
    expect(await office.erasePerson('nobody@example.com', hmac('nobody@example.com'), 'u1')).toEqual({ kind: 'nothing-held' });
    expect(await office.noticeVersions()).toEqual(versions);
    expect(await rows('select 1 from private.erasure_log')).toHaveLength(1);
    expect(await rows('select 1 from private.notice_erased')).toHaveLength(2);
  });

  it('an address with requests only is erased too; a malformed HMAC is refused before anything is removed', async () => {
    await request('asker@example.com');
    await expect(office.erasePerson('asker@example.com', 'not-a-hash', 'u1')).rejects.toMatchObject({ code: '22023' });
    expect(await office.erasePerson('asker@example.com', hmac('asker@example.com'), 'u1')).toEqual({
      kind: 'erased',
      rows: { subscribers: 0, tokens: 0, emails: 0, requests: 1, noticesKept: 0 },
    });
  });

  it('waits for a sender holding one of its emails: busy until the lease ends, then erased; the late sender records nothing and never gets it again', async () => {
    const leased = (await claim()).filter((row) => row.email === 'parent@example.com');
    expect(leased).toHaveLength(1);
    const busy = await office.erasePerson('parent@example.com', hmac('parent@example.com'), 'u1');
    expect(busy).toEqual({ kind: 'busy', until: expect.stringMatching(/Z$/) });
    expect(Date.parse((busy as { until: string }).until)).toBeGreaterThan(Date.now());
    expect(await office.findSubscriber('parent@example.com')).not.toBeNull();
    // The lease runs out (its sender's send ended inside it, lib/mail/pace.ts): the erase goes through.
    await db.query(`update private.mail_outbox set lease_until = now() - interval '1 second' where status = 'sending'`);
    expect(await office.erasePerson('parent@example.com', hmac('parent@example.com'), 'u1')).toMatchObject({ kind: 'erased' });
    await markSent(leased[0]!.outbox_id!);
    expect(await rows('select 1 from private.mail_outbox where id = $1', [leased[0]!.outbox_id])).toEqual([]);
    expect((await claim()).map((row) => row.email)).not.toContain('parent@example.com');
    const [version] = (await office.noticeVersions()).filter((v) => v.date === '2027-03-01');
    // The erased one's notice was never recorded sent: it counts as cancelled, the other subscriber's stays pending.
    expect(version).toMatchObject({ told: 0, pending: 1, cancelled: 1 });
  });
});

describe('retention and the access log', () => {
  /** As if the clock had moved on `days` for every request: the store's now() against older rows. */
  const daysLater = (days: number) =>
    db.query(
      `update public.support_requests set created_at = created_at - make_interval(days => $1), answered_at = answered_at - make_interval(days => $1)`,
      [days],
    );

  it('deletes answered requests past N days and unanswered ones past M days, in bounded batches', async () => {
    const answered = await Promise.all(['a1', 'a2', 'a3'].map((name) => request(`${name}@example.com`)));
    for (const id of answered) await office.markRequest(id, true, 'u1');
    for (const name of ['n1', 'n2']) await request(`${name}@example.com`);
    await daysLater(29);
    expect(await office.sweepRequests(30, 365, 10)).toBe(0);
    await daysLater(2);
    expect(await office.sweepRequests(30, 365, 2)).toBe(2);
    expect(await office.sweepRequests(30, 365, 2)).toBe(1);
    expect(await office.sweepRequests(30, 365, 2)).toBe(0);
    await daysLater(334);
    await request('fresh@example.com');
    expect(await office.sweepRequests(30, 365, 10)).toBe(2);
    expect(await rows('select email from public.support_requests')).toEqual([{ email: 'fresh@example.com' }]);
  });

  it('logs reads, exports and erases with who, what and how many rows, under the HMAC only, newest first by keyset', async () => {
    for (const [action, rowsSeen] of [
      ['read', 3],
      ['export', 3],
      ['erase', 5],
      ['export-notices', 120],
    ] as const)
      await office.logAccess({
        actor: 'u1 Ada Editor',
        action,
        rows: rowsSeen,
        subject: action === 'export-notices' ? null : hmac('parent@example.com'),
      });
    const first = await office.accessLog(null, 3);
    expect(first.rows.map((row) => row.action)).toEqual(['export-notices', 'erase', 'export']);
    expect(first.rows[1]).toEqual({
      at: expect.stringMatching(/Z$/),
      actor: 'u1 Ada Editor',
      action: 'erase',
      rows: 5,
      subject: hmac('parent@example.com'),
    });
    expect(await office.accessLog(first.next, 3)).toMatchObject({ rows: [{ action: 'read', rows: 3 }], next: null });
    await expect(office.logAccess({ actor: 'u1', action: 'read', rows: 1, subject: 'parent@example.com' })).rejects.toMatchObject({
      code: '23514',
    });
    await expect(office.logAccess({ actor: 'u1', action: 'look' as 'read', rows: 1, subject: null })).rejects.toMatchObject({
      code: '23514',
    });
  });

  it('every office function is the service role’s alone', async () => {
    const grants = await rows<{ name: string; anon: boolean; authenticated: boolean; public: boolean; service: boolean }>(
      `select p.proname as name, has_function_privilege('anon', p.oid, 'execute') as anon,
          has_function_privilege('authenticated', p.oid, 'execute') as authenticated,
          coalesce(p.proacl::text like '%,=X%' or p.proacl::text like '{=X%', true) as public,
          has_function_privilege('service_role', p.oid, 'execute') as service
        from pg_proc p where p.pronamespace = 'public'::regnamespace and p.proname like 'office\\_%'`,
    );
    expect(grants).toHaveLength(13);
    for (const grant of grants)
      expect(grant).toEqual({ name: grant.name, anon: false, authenticated: false, public: false, service: true });
    await expect(callAs(db, 'anon', 'office_subscriber_counts', {})).rejects.toMatchObject({ code: '42501' });
  });
});
