import { createHmac } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { OFFICE_VERSION, requestAddress, seedOfficeRows, SUBSCRIBER_REQUEST_EVERY, subscriberAddress } from '@/testkit/office-rows';
import { startSupabaseStack, supabaseEnv, type SupabaseStack } from '@/testkit/postgrest-harness';

/**
 * The back office's store on the hosted path: supabase-js with the secret key, through real PostgREST, on
 * Debian's PostgreSQL: keyset pages whose cursors keep microseconds, the search by an address's beginning,
 * and an erase that keeps the record of notices. Its times at 100 000 rows are measured, not asserted here:
 * `npm run bench -- back-office`. supabase/back-office.test.ts covers the rules on PGlite.
 */
let stack: SupabaseStack;
let office: typeof import('./back-office');

const ROWS = 2_000;
const hmac = (email: string) => createHmac('sha256', 'test key').update(email.toLowerCase()).digest('hex');

beforeAll(async () => {
  stack = await startSupabaseStack({ database: 'postgres' });
  for (const [name, value] of Object.entries(supabaseEnv(stack))) vi.stubEnv(name, value);
  vi.resetModules();
  office = await import('./back-office');
  await seedOfficeRows((sql) => stack.query(sql), ROWS);
}, 120_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await stack?.close();
}, 30_000);

describe('back office on PostgreSQL through PostgREST', () => {
  it('pages requests by keyset, newest first, and the cursor keeps microseconds', async () => {
    const first = await office.listRequests({}, null, 50);
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]!.subject).toBe('Subject 1');
    expect(first.rows[0]!.createdAt).toMatch(/\.\d{6}Z$/);
    const second = await office.listRequests({}, first.next, 50);
    expect(second.rows[0]!.subject).toBe('Subject 51');
    const filtered = await office.listRequests({ language: 'es', type: 'issue', status: 'new' }, second.next, 50);
    expect(filtered.rows.length).toBeGreaterThan(0);
    expect(filtered.rows.every((row) => row.language === 'es' && row.type === 'issue' && row.status === 'new')).toBe(true);
  });

  it('walks every request once, to the end', async () => {
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof office.listRequests>> = await office.listRequests({}, cursor, 100);
      for (const row of page.rows) seen.add(row.id);
      cursor = page.next;
    } while (cursor);
    expect(seen.size).toBe(ROWS);
  });

  it('searches requests by an address’s beginning, without case, and finds a subscriber', async () => {
    const search = await office.listRequests({ email: 'REQ199' }, null, 50);
    expect(search.rows.map((row) => row.email).sort()).toEqual(
      [requestAddress(199), ...Array.from({ length: 10 }, (_, n) => requestAddress(1990 + n))].sort(),
    );
    expect(await office.findSubscriber('SUB77@example.com')).toMatchObject({ email: subscriberAddress(77), status: 'confirmed' });
  });

  it('erases one person, and the record of notices still counts and answers for them', async () => {
    const before = await office.noticeVersions();
    const email = subscriberAddress(42);
    expect(await office.erasePerson(email, hmac(email), 'u1 Ada Editor')).toEqual({
      kind: 'erased',
      rows: { subscribers: 1, tokens: 0, emails: 1, requests: 0, noticesKept: 1 },
    });
    expect(await office.noticeVersions()).toEqual(before);
    expect(await office.wasTold(OFFICE_VERSION, email, hmac(email))).toMatchObject({ told: true, erased: true });
    expect(await office.personData(email)).toBeNull();
  });

  it('erases a subscriber’s requests with them, and a second erase finds nothing held', async () => {
    const email = subscriberAddress(SUBSCRIBER_REQUEST_EVERY);
    expect((await office.personData(email))?.requests).toHaveLength(1);
    expect(await office.erasePerson(email, hmac(email), 'u1 Ada Editor')).toEqual({
      kind: 'erased',
      rows: { subscribers: 1, tokens: 0, emails: 1, requests: 1, noticesKept: 1 },
    });
    expect(await office.erasePerson(email, hmac(email), 'u1 Ada Editor')).toEqual({ kind: 'nothing-held' });
    expect(await office.listRequests({ email }, null, 50)).toEqual({ rows: [], next: null });
  });
});
