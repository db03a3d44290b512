import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { preparedDataDir } from '@/testkit/store';

import { closeSharedStore } from './pglite';

/**
 * The embedded store (PGlite in the store's worker) applies the same quota migration, with the limits
 * the app's settings give (RATE_LIMIT_MAX, RATE_LIMIT_SITE_MAX, RATE_LIMIT_WINDOW_SECONDS), and the
 * action hands a database refusal to the visitor as the in-process limiter's refusal: typed text kept.
 */

// The action reads the client address the server vouches for from X-Forwarded-For.
const requestHeaders = vi.hoisted(() => ({ current: new Headers() }));
vi.mock('next/headers', () => ({ headers: async () => requestHeaders.current }));

const dirs: string[] = [];

/** The store (and the actions) loaded afresh on a new DATA_DIR (its store migrated already) with `env`. */
async function load(env: Record<string, string>) {
  const dataDir = await preparedDataDir(await mkdtemp(path.join(tmpdir(), 'quota-store-')));
  dirs.push(dataDir);
  vi.stubEnv('DATA_DIR', dataDir);
  vi.stubEnv('STORE_TIMEOUT_SECONDS', '120');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', '');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', '');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_ANON_KEY', '');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  // A fresh in-process limiter too: it lives on globalThis.
  delete (globalThis as { supportLimits?: unknown }).supportLimits;
  return { store: await import('./store'), actions: await import('@/lib/support/actions') };
}

beforeAll(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterAll(async () => {
  for (const dir of dirs) {
    await closeSharedStore(path.join(dir, 'pglite'));
    await rm(dir, { recursive: true, force: true });
  }
  vi.unstubAllEnvs();
}, 30_000);

const request = (n: number | string) => ({
  email: 'student@example.edu',
  subject: `Embedded ${n}`,
  message: 'Nothing loads.',
  type: 'issue' as const,
});
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('quotas of the embedded store', () => {
  it('holds RATE_LIMIT_MAX per client and RATE_LIMIT_SITE_MAX for the site, in the database', async () => {
    const { store } = await load({ RATE_LIMIT_MAX: '2', RATE_LIMIT_SITE_MAX: '3' });
    await store.saveSupportRequest({ ...request(1), clientKey: '203.0.113.1' });
    await store.saveSupportRequest({ ...request(2), clientKey: '203.0.113.1' });
    expect(await failure(store.saveSupportRequest({ ...request(3), clientKey: '203.0.113.1' }))).toMatchObject({
      visitorMessage: { code: 'rateLimited' },
    });
    await store.saveSupportRequest({ ...request(4), clientKey: '203.0.113.2' });
    expect(await failure(store.saveSupportRequest({ ...request(5), clientKey: '203.0.113.3' }))).toMatchObject({
      visitorMessage: { code: 'siteBusy' },
    });
  }, 120_000);

  it('honours limits raised far above the defaults (the load tests and browser tests raise them)', async () => {
    const { store } = await load({ RATE_LIMIT_MAX: '1000000', RATE_LIMIT_SITE_MAX: '1000000000' });
    for (let n = 0; n < 150; n++) await store.saveSupportRequest({ ...request(n), clientKey: '203.0.113.1' });
    // And lower ones again on the next start: the settings, not what an earlier start wrote, decide.
    const dataDir = process.env.DATA_DIR!;
    await closeSharedStore(path.join(dataDir, 'pglite'));
    vi.stubEnv('RATE_LIMIT_SITE_MAX', '150');
    vi.resetModules();
    const restarted = await import('./store');
    expect(await failure(restarted.saveSupportRequest({ ...request('after restart'), clientKey: '203.0.113.2' }))).toMatchObject({
      visitorMessage: { code: 'siteBusy' },
    });
  }, 120_000);

  it('an action refused by the database (the quota used up through another server) keeps what the visitor typed', async () => {
    const { store, actions } = await load({ RATE_LIMIT_MAX: '2' });
    requestHeaders.current = new Headers({ 'x-forwarded-for': '203.0.113.9' });
    // Another server of the same site, sharing this database, stored this client's two.
    await store.saveSupportRequest({ ...request('elsewhere 1'), clientKey: '203.0.113.9' });
    await store.saveSupportRequest({ ...request('elsewhere 2'), clientKey: '203.0.113.9' });

    const form = new FormData();
    for (const [name, value] of Object.entries({
      email: 'student@example.edu',
      subject: 'Typed here',
      message: 'Keep this text.',
      type: 'feedback',
    }))
      form.set(name, value);
    const answer = await actions.submitSupportRequest({ status: 'idle' }, form);
    expect(answer).toEqual({
      status: 'error',
      message: { code: 'rateLimited' },
      fields: { email: 'student@example.edu', subject: 'Typed here', message: 'Keep this text.' },
    });

    const signUp = new FormData();
    signUp.set('email', 'reader@example.com');
    await store.saveSubscriber({ email: 'first@example.com', clientKey: '203.0.113.9' });
    await store.saveSubscriber({ email: 'second@example.com', clientKey: '203.0.113.9' });
    expect(await actions.subscribe({ status: 'idle' }, signUp)).toEqual({
      status: 'error',
      message: { code: 'rateLimited' },
      fields: { email: 'reader@example.com' },
    });
  }, 120_000);
});
