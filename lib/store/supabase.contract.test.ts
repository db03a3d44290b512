import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { freePort } from '@/testkit/processes';
import { startSupabaseStack, type SupabaseStack } from '@/testkit/postgrest-harness';

/**
 * The Supabase backend of the store, unchanged: real supabase-js against real
 * PostgREST over the same migrations (PGlite behind pglite-socket).
 */
let stack: SupabaseStack;
let store: typeof import('./store');
// Loaded with the store, so its StoreError is the class the store throws.
let errors: typeof import('./errors');

beforeAll(async () => {
  stack = await startSupabaseStack();
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', stack.url);
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', stack.publishableKey);
  vi.resetModules();
  store = await import('./store');
  errors = await import('./errors');
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await stack?.close();
}, 30_000);

const request = { email: 'student@example.edu', subject: 'Map is blank', message: 'Nothing loads near school.', type: 'feedback' } as const;

const rows = (sql: string) => stack.query(sql);

describe('store on Supabase', () => {
  it('inserts a request that is stored with status new', async () => {
    await store.saveSupportRequest(request);
    expect(await rows("select email, subject, message, type, status from support_requests where subject = 'Map is blank'")).toEqual([
      { ...request, status: 'new' },
    ]);
  });

  it('turns a violated limit into the message a visitor reads', async () => {
    const error = await store.saveSupportRequest({ ...request, message: 'm'.repeat(5001) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errors.StoreError);
    expect(error).toMatchObject({ kind: 'rejected', visitorMessage: { code: 'tooLong', field: 'message', max: 5000 }, code: '23514' });
  });

  it('refuses a type outside issue, feedback and feature', async () => {
    const error = await store.saveSupportRequest({ ...request, type: 'bug' as 'issue' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'rejected', visitorMessage: { code: 'invalidType' } });
  });

  it('subscribes an address twice without error and stores it once', async () => {
    await store.saveSubscriber({ email: 'Reader@Example.com' });
    await store.saveSubscriber({ email: 'reader@example.com' });
    expect(await rows("select email from newsletter_subscribers where lower(email) = 'reader@example.com'")).toEqual([
      { email: 'Reader@Example.com' },
    ]);
  });

  it('gives the public key no way to read requests or subscribers back', async () => {
    const { createSupabase } = await import('./supabase');
    const client = createSupabase({ url: stack.url, publishableKey: stack.publishableKey });
    for (const table of ['support_requests', 'newsletter_subscribers'] as const) {
      const { data, error } = await client.from(table).select('*');
      expect(data).toBeNull();
      expect(error).toMatchObject({ code: '42501' });
    }
  });

  it('reports the store as unavailable while PostgREST is down, and recovers without a restart', async () => {
    await stack.stopPostgrest();
    const error = await store.saveSupportRequest({ ...request, subject: 'While down' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'unavailable', visitorMessage: { code: 'failed' } });
    expect(await rows("select 1 from support_requests where subject = 'While down'")).toEqual([]);

    await stack.startPostgrest();
    await store.saveSupportRequest({ ...request, subject: 'After restart' });
    expect(await rows("select status from support_requests where subject = 'After restart'")).toEqual([{ status: 'new' }]);
  });

  it('stores a repeat once: the same form again, and the same text without a key; two visitors stay two requests', async () => {
    const keyed = { ...request, subject: 'Double click', submissionKey: randomUUID() };
    await Promise.all([store.saveSupportRequest(keyed), store.saveSupportRequest(keyed)]);
    await store.saveSupportRequest(keyed);
    const plain = { ...request, subject: 'Resubmitted without JavaScript' };
    await store.saveSupportRequest(plain);
    await store.saveSupportRequest(plain);
    await store.saveSupportRequest({ ...plain, email: 'classmate@example.edu' });
    expect(
      await rows(
        'select email, subject, submission_key::text as key from support_requests' +
          " where subject in ('Double click', 'Resubmitted without JavaScript') order by email",
      ),
    ).toEqual([
      { email: 'classmate@example.edu', subject: plain.subject, key: null },
      { email: request.email, subject: keyed.subject, key: keyed.submissionKey },
      { email: request.email, subject: plain.subject, key: null },
    ]);
  });

  it('gives up on a hung PostgREST at the deadline; the late insert commits once and the retry is a success without a second row', async () => {
    vi.stubEnv('STORE_TIMEOUT_SECONDS', '1');
    vi.resetModules();
    const withDeadline = await import('./store');
    const hung = { ...request, subject: 'Sent while PostgREST hung', submissionKey: randomUUID() };
    stack.pausePostgrest();
    try {
      const error = await withDeadline.saveSupportRequest(hung).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ kind: 'unavailable', visitorMessage: { code: 'failed' } });
    } finally {
      stack.resumePostgrest();
    }
    const stored = () => rows(`select subject from support_requests where subject = '${hung.subject}'`);
    await vi.waitFor(async () => expect(await stored()).toHaveLength(1), { timeout: 20_000, interval: 200 });
    await withDeadline.saveSupportRequest(hung);
    expect(await stored()).toHaveLength(1);
  });

  it('reports the store as unavailable when nothing answers at the URL at all', async () => {
    vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', `http://127.0.0.1:${await freePort()}`);
    vi.resetModules();
    const unreachable = await import('./store');
    const error = await unreachable.saveSupportRequest(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf((await import('./errors')).StoreError);
    expect(error).toMatchObject({ kind: 'unavailable', visitorMessage: { code: 'failed' } });
  });
});
