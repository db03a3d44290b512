import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { startSupabaseStack, type SupabaseStack } from '@/testkit/postgrest-harness';

/**
 * The database's quotas as anyone holding the public key meets them: real PostgREST over the same
 * migrations, with the migration's default limits (100 rows per table per window for the site, 5 per
 * client, 600 s), written straight to /rest/v1 as well as through the site's store.
 */
let stack: SupabaseStack;
let store: typeof import('./store');

beforeAll(async () => {
  stack = await startSupabaseStack({ quotas: null });
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', stack.url);
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', stack.publishableKey);
  vi.resetModules();
  store = await import('./store');
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await stack?.close();
}, 30_000);

beforeEach(async () => {
  await stack.query('truncate public.support_requests, public.newsletter_subscribers cascade');
  await stack.query(
    `do $$ begin if to_regclass('private.quota_counters') is not null then delete from private.quota_counters; end if; end $$`,
  );
});

const SITE_MAX = 100;
const CLIENT_MAX = 5;
const ATTEMPTS = 300;

/** POST one row straight to PostgREST with the public key, as a script would; resolves to the HTTP status and the body's code. */
async function post(table: string, row: object, headers: Record<string, string> = {}): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${stack.url}/rest/v1/${table}`, {
    method: 'POST',
    headers: {
      apikey: stack.publishableKey,
      authorization: `Bearer ${stack.publishableKey}`,
      'content-type': 'application/json',
      prefer: 'return=minimal',
      ...headers,
    },
    body: JSON.stringify(row),
  });
  const text = await response.text();
  return { status: response.status, code: text ? (JSON.parse(text) as { code?: string }).code : undefined };
}

/** `ATTEMPTS` posts, `concurrency` at a time; counts the answers by status and code. */
async function flood(make: (n: number) => Promise<{ status: number; code?: string }>, concurrency = 10): Promise<Record<string, number>> {
  const answers: Record<string, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ATTEMPTS) {
        const { status, code } = await make(next++);
        const key = code ? `${status} ${code}` : String(status);
        answers[key] = (answers[key] ?? 0) + 1;
      }
    }),
  );
  return answers;
}

const count = async (table: string) => (await stack.query<{ n: number }>(`select count(*)::int as n from public.${table}`))[0]!.n;

const request = (n: number | string) => ({
  email: `flood${n}@example.com`,
  subject: `Flood ${n}`,
  message: `Every one of these has its own text: ${n}.`,
  type: 'issue',
  submission_key: randomUUID(),
});

describe('quotas through PostgREST with the public key', () => {
  it(`${ATTEMPTS} direct inserts into support_requests, each with its own text and key: at most ${SITE_MAX} stored, the rest answered 429`, async () => {
    const answers = await flood((n) => post('support_requests', request(n)));
    const stored = await count('support_requests');
    console.log(`support_requests: ${ATTEMPTS} direct inserts, ${stored} stored, answers ${JSON.stringify(answers)}`);
    expect(stored).toBeLessThanOrEqual(SITE_MAX);
    expect(answers).toEqual({ '201': stored, '429 PT429': ATTEMPTS - stored });
  });

  it(`${ATTEMPTS} direct inserts into newsletter_subscribers: at most ${SITE_MAX} stored`, async () => {
    const answers = await flood((n) => post('newsletter_subscribers', { email: `reader${n}@example.com` }));
    const stored = await count('newsletter_subscribers');
    console.log(`newsletter_subscribers: ${ATTEMPTS} direct inserts, ${stored} stored, answers ${JSON.stringify(answers)}`);
    expect(stored).toBeLessThanOrEqual(SITE_MAX);
    expect(answers).toEqual({ '201': stored, '429 PT429': ATTEMPTS - stored });
  });

  it('one array of 300 rows in one request stores nothing past the ceiling', async () => {
    const answer = await post(
      'support_requests',
      Array.from({ length: ATTEMPTS }, (_, n) => request(`bulk ${n}`)),
    );
    expect(answer).toEqual({ status: 429, code: 'PT429' });
    expect(await count('support_requests')).toBe(0);
  });

  it('a direct caller is one client by the first X-Forwarded-For entry PostgREST sees', async () => {
    const answers = await flood((n) => post('support_requests', request(n), { 'x-forwarded-for': '203.0.113.50' }));
    expect(answers).toEqual({ '201': CLIENT_MAX, '429 PT429': ATTEMPTS - CLIENT_MAX });
  });
});

describe("the site's store on Supabase past a quota", () => {
  const save = (n: number | string, clientKey: string) =>
    store.saveSupportRequest({
      email: 'student@example.edu',
      subject: `Quota ${n}`,
      message: 'Nothing loads.',
      type: 'issue',
      submissionKey: randomUUID(),
      clientKey,
    });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('past the per-client quota: the "too many requests" message for that client, nothing stored', async () => {
    for (let n = 0; n < CLIENT_MAX; n++) await save(n, '203.0.113.60');
    const error = await failure(save('over', '203.0.113.60'));
    expect(error).toMatchObject({ name: 'StoreError', visitorMessage: { code: 'rateLimited' }, code: 'PT429' });
    expect(await count('support_requests')).toBe(CLIENT_MAX);
    // Another visitor is not affected; the same for sign-ups, a table of its own.
    await save('neighbour', '203.0.113.61');
    for (let n = 0; n < CLIENT_MAX; n++) await store.saveSubscriber({ email: `quota${n}@example.com`, clientKey: '203.0.113.60' });
    expect(await failure(store.saveSubscriber({ email: 'quota.over@example.com', clientKey: '203.0.113.60' }))).toMatchObject({
      visitorMessage: { code: 'rateLimited' },
    });
  });

  it('past the site ceiling: the site-wide "too many requests right now" message, whatever the address', async () => {
    for (let n = 0; n < SITE_MAX; n++) await save(n, `198.51.100.${n}`);
    const error = await failure(save('over', '192.0.2.99'));
    expect(error).toMatchObject({ name: 'StoreError', visitorMessage: { code: 'siteBusy' }, code: 'PT429' });
    expect(await count('support_requests')).toBe(SITE_MAX);
  });
});
