import { createHmac } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { startSupabaseStack, supabaseEnv, type SupabaseStack } from '@/testkit/postgrest-harness';

/**
 * The back office's store on the hosted path: supabase-js with the secret key, through real PostgREST,
 * on Debian's PostgreSQL, with 100 000 requests and 100 000 subscribers: a page, a search and an erase
 * within their budgets (200 ms, 200 ms, 1 s, the HTTP round trip included), and times that round-trip
 * exactly as cursors. supabase/back-office.test.ts covers the rules on PGlite.
 */
let stack: SupabaseStack;
let office: typeof import('./back-office');

const ROWS = 100_000;
const hmac = (email: string) => createHmac('sha256', 'test key').update(email.toLowerCase()).digest('hex');

beforeAll(async () => {
  stack = await startSupabaseStack({ database: 'postgres' });
  for (const [name, value] of Object.entries(supabaseEnv(stack))) vi.stubEnv(name, value);
  vi.resetModules();
  office = await import('./back-office');
  // Straight into the tables, without the sign-up's triggers: what a long-lived site has gathered.
  await stack.query(`
    set session_replication_role = replica;
    insert into public.newsletter_subscribers (email, status, language, confirmed_at, created_at)
      select 'sub' || n || '@example.com', 'confirmed', case when n % 3 = 0 then 'es' else '' end, now(), now() - make_interval(secs => n)
      from generate_series(1, ${ROWS}) n;
    insert into public.support_requests (email, subject, message, type, language, created_at)
      select 'req' || n || '@example.com', 'Subject ' || n, 'Message ' || n, (array['issue', 'feedback', 'feature'])[1 + n % 3],
        case when n % 50 = 0 then 'es' else '' end, now() - make_interval(secs => n) - make_interval(secs => n % 7 / 1000000.0)
      from generate_series(1, ${ROWS}) n;
    insert into private.policy_announcements (version_date, announced_at) values ('2027-01-01', now());
    insert into private.mail_outbox (kind, subscriber_id, ref, status, sent_at)
      select 'notice', id, '2027-01-01', 'sent', now() from public.newsletter_subscribers;
    analyze;
  `);
}, 240_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await stack?.close();
}, 30_000);

/** Resolves to `work`'s result and its best time of three, in ms (the first call also warms the pool). */
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  let best = Infinity;
  let result!: T;
  for (let n = 0; n < 3; n++) {
    const start = performance.now();
    result = await work();
    best = Math.min(best, performance.now() - start);
  }
  return { result, ms: best };
}

describe('back office on PostgreSQL through PostgREST', () => {
  it('pages 100 000 requests by keyset within 200 ms, deep pages too, and the cursor keeps microseconds', async () => {
    const first = await timed(() => office.listRequests({}, null, 50));
    expect(first.result.rows).toHaveLength(50);
    expect(first.result.rows[0]!.createdAt).toMatch(/\.\d{6}Z$/);
    expect(first.ms).toBeLessThan(200);
    const second = await office.listRequests({}, first.result.next, 50);
    expect(second.rows[0]!.subject).toBe('Subject 51');
    const filtered = await timed(() => office.listRequests({ language: 'es', type: 'issue', status: 'new' }, second.next, 50));
    expect(filtered.result.rows.every((row) => row.language === 'es' && row.type === 'issue')).toBe(true);
    expect(filtered.ms).toBeLessThan(200);
  });

  it('searches 100 000 requests by an address’s beginning within 200 ms', async () => {
    const search = await timed(() => office.listRequests({ email: 'REQ9999' }, null, 50));
    expect(search.result.rows.map((row) => row.email).sort()).toEqual(
      ['req9999@example.com', ...Array.from({ length: 10 }, (_, n) => `req9999${n}@example.com`)].sort(),
    );
    expect(search.ms).toBeLessThan(200);
    const subscriber = await timed(() => office.findSubscriber('SUB77@example.com'));
    expect(subscriber.result).toMatchObject({ email: 'sub77@example.com', status: 'confirmed' });
    expect(subscriber.ms).toBeLessThan(200);
  });

  it('erases one person among 100 000 within 1 s, and the record of notices still counts and answers for them', async () => {
    const before = await office.noticeVersions();
    const start = performance.now();
    const erased = await office.erasePerson('sub42@example.com', hmac('sub42@example.com'), 'u1 Ada Editor');
    expect(performance.now() - start).toBeLessThan(1000);
    expect(erased).toEqual({ kind: 'erased', rows: { subscribers: 1, tokens: 0, emails: 1, requests: 0, noticesKept: 1 } });
    expect(await office.noticeVersions()).toEqual(before);
    expect(await office.wasTold('2027-01-01', 'sub42@example.com', hmac('sub42@example.com'))).toMatchObject({ told: true, erased: true });
    expect(await office.personData('sub42@example.com')).toBeNull();
  });
});
