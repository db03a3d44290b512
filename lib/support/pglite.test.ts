import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { closeSharedStore, migrateStore, openStore } from './pglite';

/** The store's embedded backend, through the store module itself, on a temporary DATA_DIR. */
let dataDir: string;
let store: typeof import('./store');

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pglite-store-'));
  vi.stubEnv('DATA_DIR', dataDir);
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', '');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', '');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_ANON_KEY', '');
  vi.resetModules();
  store = await import('./store');
}, 60_000);

afterAll(async () => {
  await closeSharedStore(path.join(dataDir, 'pglite'));
  vi.unstubAllEnvs();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('embedded PGlite store on disk', () => {
  it('saves requests and subscribers, keeps them across a re-open and applies migrations once', async () => {
    const dir = path.join(dataDir, 'pglite');
    await store.saveSupportRequest({ email: 'a@example.com', subject: 'Hello', message: 'Kept?', type: 'feature' });
    await store.saveSubscriber('Reader@Example.com');
    await store.saveSubscriber('reader@example.com');
    await closeSharedStore(dir);

    const reopened = await openStore(dir);
    try {
      expect(await migrateStore(reopened)).toEqual([]);
      expect((await reopened.query('select subject, type, status from public.support_requests')).rows).toEqual([
        { subject: 'Hello', type: 'feature', status: 'new' },
      ]);
      expect((await reopened.query('select email from public.newsletter_subscribers')).rows).toEqual([{ email: 'Reader@Example.com' }]);
      expect((await reopened.query('select count(*)::int as n from public.schema_migrations')).rows).toEqual([{ n: 2 }]);
    } finally {
      await reopened.close();
    }

    // The store reopens the closed directory on its next write.
    await store.saveSupportRequest({ email: 'b@example.com', subject: 'Again', message: 'After re-open', type: 'issue' });
  });

  it('turns a broken rule into a rejected StoreError', async () => {
    const error = await store.saveSupportRequest({ email: 'a@example.com', subject: 's'.repeat(201), message: 'm', type: 'issue' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(store.StoreError);
    expect(error).toMatchObject({ kind: 'rejected', message: 'Subject must be at most 200 characters.', code: '23514' });
  });

  it('runs one store per data directory, however many callers ask at once', async () => {
    const { sharedStore } = await import('./pglite');
    const dir = path.join(dataDir, 'pglite');
    expect(sharedStore(dir)).toBe(sharedStore(dir));
  });

  it('a store that cannot open fails the write with its error, and the next write starts a new one', async () => {
    const { sharedStore } = await import('./pglite');
    // A data directory below a regular file can never be created.
    const blocked = path.join(dataDir, 'not-a-directory');
    await writeFile(blocked, '');
    const dir = path.join(blocked, 'pglite');
    const first = sharedStore(dir);
    await expect(first.insert('newsletter_subscribers', { email: 'x@example.com' })).rejects.toThrow(/ENOTDIR|not a directory/i);
    expect(sharedStore(dir)).not.toBe(first);
    await closeSharedStore(dir);
  });

  it('writes from many callers at once all land, each committed when its promise resolves', async () => {
    const subjects = Array.from({ length: 40 }, (_, index) => `Concurrent ${index}`);
    await Promise.all(subjects.map((subject) => store.saveSupportRequest({ email: 'c@example.com', subject, message: 'm', type: 'issue' })));
    const dir = path.join(dataDir, 'pglite');
    await closeSharedStore(dir);
    const reopened = await openStore(dir);
    try {
      const { rows } = await reopened.query<{ subject: string }>("select subject from public.support_requests where subject like 'Concurrent %'");
      expect(rows.map((row) => row.subject).sort()).toEqual([...subjects].sort());
    } finally {
      await reopened.close();
    }
  });
});
