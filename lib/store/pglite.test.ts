import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { preparedDataDir } from '@/testkit/store';

import { closeSharedStore, migrateStore, openStore, type StoreOptions } from './pglite';

const OPTIONS: StoreOptions = { timeoutMs: 30_000, fsync: true };

/** The store's embedded backend, through the store module itself, on a temporary DATA_DIR. */
let dataDir: string;
let store: typeof import('./store');
// Loaded with the store, so its StoreError is the class the store throws.
let errors: typeof import('./errors');

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pglite-store-'));
  vi.stubEnv('DATA_DIR', dataDir);
  // Creating a store takes seconds on a busy machine; the server opens it at start, this test on first write.
  vi.stubEnv('STORE_TIMEOUT_SECONDS', '120');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', '');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', '');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_ANON_KEY', '');
  vi.resetModules();
  store = await import('./store');
  errors = await import('./errors');
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
    await store.saveSubscriber({ email: 'Reader@Example.com' });
    await store.saveSubscriber({ email: 'reader@example.com', language: 'es' });
    await closeSharedStore(dir);

    const reopened = await openStore(dir);
    try {
      expect(await migrateStore(reopened)).toEqual([]);
      expect((await reopened.query('select subject, type, status from public.support_requests')).rows).toEqual([
        { subject: 'Hello', type: 'feature', status: 'new' },
      ]);
      // Stored once, in the language of the page signed up on last.
      expect((await reopened.query('select email, language from public.newsletter_subscribers')).rows).toEqual([
        { email: 'Reader@Example.com', language: 'es' },
      ]);
      const migrations = (await readdir(path.join(process.cwd(), 'supabase', 'migrations'))).filter((file) => file.endsWith('.sql'));
      expect((await reopened.query('select count(*)::int as n from public.schema_migrations')).rows).toEqual([{ n: migrations.length }]);
    } finally {
      await reopened.close();
    }

    // The store reopens the closed directory on its next write.
    await store.saveSupportRequest({ email: 'b@example.com', subject: 'Again', message: 'After re-open', type: 'issue' });
  });

  it('turns a broken rule into a rejected StoreError', async () => {
    const error = await store
      .saveSupportRequest({ email: 'a@example.com', subject: 's'.repeat(201), message: 'm', type: 'issue' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errors.StoreError);
    expect(error).toMatchObject({ kind: 'rejected', visitorMessage: { code: 'tooLong', field: 'subject', max: 200 }, code: '23514' });
  });

  it('runs one store per data directory, however many callers ask at once', async () => {
    const dir = path.join(dataDir, 'pglite');
    const COPIES = 4;
    const WRITES = 20;
    await closeSharedStore(dir);
    // Next loads this module in several bundles: each import after resetModules is another copy of it.
    const copies: (typeof import('./pglite'))[] = [];
    for (let copy = 0; copy < COPIES; copy++) {
      vi.resetModules();
      copies.push(await import('./pglite'));
    }
    expect(new Set(copies).size).toBe(COPIES);

    // Every copy asks for the closed store at once, and writes 20 rows at once.
    const stores = copies.map((copy) => copy.sharedStore(dir, OPTIONS));
    expect(new Set(stores).size).toBe(1);
    const tag = `concurrent-${Date.now()}`;
    await Promise.all(
      copies.flatMap((copy, c) =>
        Array.from({ length: WRITES }, (_, w) =>
          copy.sharedStore(dir, OPTIONS).insert('newsletter_subscribers', { email: `${tag}-${c}-${w}@example.com` }),
        ),
      ),
    );

    await closeSharedStore(dir);
    const db = await openStore(dir);
    try {
      const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.newsletter_subscribers where email like $1', [
        `${tag}-%`,
      ]);
      expect(rows[0]?.n).toBe(COPIES * WRITES);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('a store that cannot open fails with its error, and the next write tries again', async () => {
    const { sharedStore } = await import('./pglite');
    // A data directory below a regular file can never be created.
    const blocked = path.join(dataDir, 'not-a-directory');
    await writeFile(blocked, '');
    const dir = path.join(blocked, 'pglite');
    expect(() => sharedStore(dir, OPTIONS)).toThrow(/ENOTDIR|not a directory|EEXIST/i);
    // Nothing half-started is kept: the next attempt tries again (and fails the same way).
    expect(() => sharedStore(dir, OPTIONS)).toThrow(/ENOTDIR|not a directory|EEXIST/i);
  });

  it('a store another live process holds is refused, naming the directory and the pid, and left untouched; once that process is killed it opens', async () => {
    const { sharedStore } = await import('./pglite');
    const dir = path.join(dataDir, 'held', 'pglite');
    await rm(path.dirname(dir), { recursive: true, force: true });
    await mkdir(path.dirname(dir), { recursive: true });
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await writeFile(`${dir}.lock`, `${holder.pid}\n`);
      let refused: unknown;
      try {
        sharedStore(dir, OPTIONS);
      } catch (error) {
        refused = error;
      }
      // By name: the store module was loaded afresh (vi.resetModules), so its class is another instance.
      expect(refused).toMatchObject({ name: 'StoreLockedError', pid: holder.pid });
      expect((refused as Error).message).toContain(dir);
      expect((refused as Error).message).toContain(`process ${holder.pid}`);
      expect(existsSync(dir)).toBe(false);
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
    }
    // The lock is stale now: a restart after a SIGKILL is never blocked. (A migrated store, as the holder
    // would have left: creating one is the first test's, and costs seconds of CPU.)
    await preparedDataDir(path.dirname(dir));
    const store2 = sharedStore(dir, OPTIONS);
    await store2.opened;
    await store2.insert('newsletter_subscribers', { email: 'after.stale.lock@example.com' });
    await closeSharedStore(dir);
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('a write the store does not answer within the deadline is rejected then, and the late commit is kept once', async () => {
    const { sharedStore } = await import('./pglite');
    const dir = path.join(await preparedDataDir(path.join(dataDir, 'slow')), 'pglite');
    // Opening a store (PGlite's WebAssembly, then the database) takes most of a second, far longer than this
    // deadline: the first write waits behind it.
    const slow = sharedStore(dir, { timeoutMs: 50, fsync: true });
    await expect(slow.insert('newsletter_subscribers', { email: 'late@example.com' })).rejects.toThrow(/did not answer within 0.05 s/);
    await slow.opened;
    await closeSharedStore(dir);
    const reopened = await openStore(dir);
    try {
      expect((await reopened.query('select email from public.newsletter_subscribers')).rows).toEqual([{ email: 'late@example.com' }]);
    } finally {
      await reopened.close();
    }
  });

  it('writes from many callers at once all land, each committed when its promise resolves', async () => {
    const subjects = Array.from({ length: 40 }, (_, index) => `Concurrent ${index}`);
    await Promise.all(
      subjects.map((subject) => store.saveSupportRequest({ email: 'c@example.com', subject, message: 'm', type: 'issue' })),
    );
    const dir = path.join(dataDir, 'pglite');
    await closeSharedStore(dir);
    const reopened = await openStore(dir);
    try {
      const { rows } = await reopened.query<{ subject: string }>(
        "select subject from public.support_requests where subject like 'Concurrent %'",
      );
      expect(rows.map((row) => row.subject).sort()).toEqual([...subjects].sort());
    } finally {
      await reopened.close();
    }
  });
});
