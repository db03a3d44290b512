import 'server-only';

import { Worker } from 'node:worker_threads';

import { appPath } from '../shared/app-root.mjs';
import type { FunctionArgs, FunctionResult, StoreFunction, Table, TableInsert } from './database.types';
import { callAs, type CallRole } from './pglite-call.mjs';
import { insertAsAnon, migrateStore, openStore, type Quotas } from './pglite-core.mjs';
import { lockStore } from '@school-site/guards';

/**
 * The embedded store: Postgres (PGlite) persisted on disk, with the same
 * supabase/migrations as the hosted database and every visitor write made as
 * role anon, so the same grants and row-level security decide. The server runs
 * it in a worker thread (pglite-worker.mjs); tests and scripts may open one in
 * their own thread with openStore.
 */

export { callAs, insertAsAnon, migrateStore, openStore, type CallRole, type Quotas, type Table };

export type EmbeddedStore = {
  /**
   * Resolves once the row is committed; rejects with the database's error (code, constraint, message),
   * or after the store's deadline. A row past its deadline may still commit later. `clientKey`: whose
   * quota the row counts against (none: the site ceiling only).
   */
  insert<T extends Table>(table: T, row: TableInsert<T>, clientKey?: string | null): Promise<void>;
  /** Calls a function of the store as `role` (pglite-core.mjs callAs), with the same deadline as an insert. */
  call<F extends StoreFunction>(role: CallRole, fn: F, args: FunctionArgs<F>): Promise<FunctionResult<F>>;
  /** Resolves once the database is open and migrated; rejects if it cannot open. */
  opened: Promise<void>;
  close(): Promise<void>;
};

/**
 * How the server runs its store (lib/env/server.ts): the deadline of each write, fsync on commit, and
 * the quotas the database counts with (RATE_LIMIT_*; without, what the database holds).
 */
export type StoreOptions = { timeoutMs: number; fsync: boolean; quotas?: Quotas };

type Failure = { code?: string; constraint?: string; message: string };
type Answer = { id: number; result?: unknown; error?: Failure; fatal?: boolean } | { type: 'opened'; error?: Failure };

const toError = (failure: Failure) => Object.assign(new Error(failure.message), { code: failure.code, constraint: failure.constraint });

// A plain file of the app, not bundled (next.config.ts ships it and its imports with the standalone
// server): the same code runs under next start, the standalone server and the tests.
const WORKER_FILE = appPath('lib', 'store', 'pglite-worker.mjs');

type Waiting = { resolve: (result: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

/**
 * Writes sent to the worker and not answered yet. The worker may be stuck (a disk that does not answer):
 * each write is rejected at its deadline and its entry dropped, so a stuck store holds no memory per
 * request. An answer after that (a late commit) finds no entry and is ignored.
 */
function unansweredWrites(timeoutMs: number) {
  const pending = new Map<number, Waiting>();
  let nextId = 0;
  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (waiting) clearTimeout(waiting.timer);
    return waiting;
  };
  return {
    settle,
    rejectAll: (error: Error) => {
      for (const id of [...pending.keys()]) settle(id)?.reject(error);
    },
    /** A new write's id; `resolve` or `reject` once the worker answers it, or `reject` at the deadline. */
    add(resolve: (result: unknown) => void, reject: (error: Error) => void): number {
      const id = ++nextId;
      const timer = setTimeout(() => {
        settle(id);
        reject(new Error(`the embedded store did not answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      pending.set(id, { resolve, reject, timer });
      return id;
    },
  };
}

function startWorker(dir: string, { timeoutMs, fsync, quotas }: StoreOptions, forget: () => void): EmbeddedStore {
  // Before anything touches the directory: a second server stops here with the holder's pid.
  const unlock = lockStore(dir, `${dir}.lock`);
  const worker = new Worker(WORKER_FILE, { workerData: { dir, fsync, quotas } });
  const writes = unansweredWrites(timeoutMs);
  let exited = false;
  let settleOpened!: (error?: Error) => void;
  const opened = new Promise<void>((resolve, reject) => (settleOpened = (error) => (error ? reject(error) : resolve())));
  // Nobody may be waiting on it (a write reports its own failure); an unobserved rejection must not crash the server.
  opened.catch(() => {});
  const failAll = (error: Error) => {
    writes.rejectAll(error);
    settleOpened(error);
  };

  worker.on('message', (answer: Answer) => {
    if ('type' in answer) return settleOpened(answer.error && toError(answer.error));
    const { id, result, error, fatal } = answer;
    const waiting = writes.settle(id);
    if (fatal) {
      // The database did not open: this thread is done; the next request starts a fresh one.
      forget();
      void worker.terminate();
    }
    if (!error) return waiting?.resolve(result);
    waiting?.reject(toError(error));
  });
  worker.on('error', (error: Error) => {
    forget();
    failAll(error);
  });
  worker.on('exit', (code) => {
    exited = true;
    forget();
    unlock();
    failAll(new Error(`the embedded store's worker stopped (exit code ${code})`));
  });

  // Every message is answered once, by its id, or rejected at the deadline.
  const send = (message: object) =>
    new Promise<unknown>((resolve, reject) => {
      if (exited) return reject(new Error("the embedded store's worker has stopped"));
      worker.postMessage({ id: writes.add(resolve, reject), ...message });
    });

  return {
    insert: async (table, row, clientKey) => void (await send({ table, row, clientKey })),
    call: async <F extends StoreFunction>(role: CallRole, fn: F, args: FunctionArgs<F>) =>
      (await send({ call: { role, fn, args } })) as FunctionResult<F>,
    opened,
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

/** The store of `dir`, started on first use with `options` (later callers share it as it is). */
export function sharedStore(dir: string, options: StoreOptions): EmbeddedStore {
  const stores = (globalStores.pgliteStores ??= new Map<string, EmbeddedStore>());
  const existing = stores.get(dir);
  if (existing) return existing;
  // A store that failed to open or stopped is forgotten, so the next request starts a new one.
  const store = startWorker(dir, options, () => {
    if (stores.get(dir) === store) stores.delete(dir);
  });
  stores.set(dir, store);
  return store;
}

/** Closes and forgets the shared store of `dir` (tests; a later write starts it again). */
export async function closeSharedStore(dir: string): Promise<void> {
  await globalStores.pgliteStores?.get(dir)?.close();
}
