import 'server-only';

import { Worker } from 'node:worker_threads';

import { appPath } from '../app-root.mjs';
import { insertAsAnon, migrateStore, openStore, type Table } from './pglite-core.mjs';

/**
 * The embedded store: Postgres (PGlite) persisted on disk, with the same
 * supabase/migrations as the hosted database and every visitor write made as
 * role anon, so the same grants and row-level security decide. The server runs
 * it in a worker thread (pglite-worker.mjs); tests and scripts may open one in
 * their own thread with openStore.
 */

export { insertAsAnon, migrateStore, openStore, type Table };

export type EmbeddedStore = {
  /** Resolves once the row is committed; rejects with the database's error (code, constraint, message). */
  insert(table: Table, row: Record<string, string>): Promise<void>;
  close(): Promise<void>;
};

type Failure = { code?: string; constraint?: string; message: string };
type Answer = { id: number; error?: Failure; fatal?: boolean };

// A plain file of the app, not bundled (next.config.ts ships it and its imports with the standalone
// server): the same code runs under next start, the standalone server and the tests.
const WORKER_FILE = appPath('lib', 'support', 'pglite-worker.mjs');

function startWorker(dir: string, forget: () => void): EmbeddedStore {
  const worker = new Worker(WORKER_FILE, { workerData: { dir } });
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let exited = false;

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('message', ({ id, error, fatal }: Answer) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (fatal) {
      // The database did not open: this thread is done; the next request starts a fresh one.
      forget();
      void worker.terminate();
    }
    if (!error) return waiting?.resolve();
    waiting?.reject(Object.assign(new Error(error.message), { code: error.code, constraint: error.constraint }));
  });
  worker.on('error', (error) => {
    forget();
    failAll(error);
  });
  worker.on('exit', (code) => {
    exited = true;
    forget();
    failAll(new Error(`the embedded store's worker stopped (exit code ${code})`));
  });

  return {
    insert: (table, row) =>
      new Promise<void>((resolve, reject) => {
        if (exited) return reject(new Error("the embedded store's worker has stopped"));
        const id = ++nextId;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, table, row });
      }),
    close: async () => {
      forget();
      if (exited) return;
      const stopped = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ type: 'close' });
      await stopped;
    },
  };
}

// One store per data directory per process: Next may load this module in several bundles.
const globalStores = globalThis as typeof globalThis & { pgliteStores?: Map<string, EmbeddedStore> };

export function sharedStore(dir: string): EmbeddedStore {
  const stores = (globalStores.pgliteStores ??= new Map());
  const existing = stores.get(dir);
  if (existing) return existing;
  // A store that failed to open or stopped is forgotten, so the next request starts a new one.
  const store = startWorker(dir, () => {
    if (stores.get(dir) === store) stores.delete(dir);
  });
  stores.set(dir, store);
  return store;
}

/** Closes and forgets the shared store of `dir` (tests; a later write starts it again). */
export async function closeSharedStore(dir: string): Promise<void> {
  await globalStores.pgliteStores?.get(dir)?.close();
}
