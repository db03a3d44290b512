// Plain JavaScript: the app imports it, and so does pglite-worker.mjs, which runs in a worker thread
// as a plain file, not bundled.
import { closeSync, existsSync, fsyncSync, openSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';

import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

import { migrate } from '../../supabase/migrate.mjs';
import { appPath } from '../shared/app-root.mjs';

// V8 (Node 22 to 26) can abort the whole process, `Check failed: jit_page_->allocations_.erase(addr) == 1`
// in Runtime_TierUpWasmToJSWrapper, when two threads tier up and free wasm-to-JS import wrappers at once
// (nodejs/node#64500, open). PGlite calls a JS import for every file operation, and the server runs it in
// a worker thread beside the main thread's own WebAssembly. A budget no store reaches keeps every import
// on V8's generic wrapper, so none is compiled or freed. V8 flags are per process; this runs before any
// PGlite opens, because every PGlite of the app and its tests comes from here. `npm run bench --
// pglite-threads` counts the wrappers compiled and the aborts, with and without it.
setFlagsFromString('--wasm-wrapper-tiering-budget=2147483647');

/** PGlite, for the tests' and tools' own databases: imported from here, so the line above has run. */
export { PGlite };

// bootstrap.sql and migrations/, read at run time (next.config.ts ships them with the standalone server).
const SUPABASE_DIR = appPath('supabase');

/**
 * PGlite's on-disk filesystem (Emscripten's NODEFS: every write goes straight to the file), plus the
 * one thing it lacks: its fsync is a no-op, so Postgres's own fsync cannot reach the disk. This one
 * passes it through to the real file, which makes a commit durable when Postgres says it is.
 */
class DurableNodeFS extends NodeFS {
  /** @param {import('@electric-sql/pglite').PGlite} pg @param {object} options */
  async init(pg, options) {
    const { emscriptenOpts } = await super.init(pg, options);
    const passFsyncThrough = (/** @type {any} */ mod) => {
      const nodefs = mod.FS.filesystems.NODEFS;
      // Every NODEFS file and directory shares this object, so one assignment covers them all.
      nodefs.stream_ops.fsync = (/** @type {{ nfd?: number }} */ stream) => {
        // An error becomes an errno that Postgres sees (it stops rather than lose a commit).
        if (stream.nfd !== undefined) nodefs.tryFSOperation(() => fsyncSync(/** @type {number} */ (stream.nfd)));
        return 0;
      };
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), passFsyncThrough] } };
  }
}

// PGlite's defaults turn fsync off (-F). Durable: fsync on, and the WAL flushed with fsync(), the call
// DurableNodeFS passes through (Emscripten's fdatasync, Postgres's default on Linux, is a no-op).
const DURABLE_START = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'wal_sync_method=fsync',
  '-c',
  'synchronous_commit=on',
];

/** fsync of every file and folder under `dir`: what initdb writes is not synced by PGlite's initdb. */
function syncTree(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) syncTree(path.join(dir, entry.name));
    else if (entry.isFile()) syncFile(path.join(dir, entry.name));
  }
  syncFile(dir);
}

function syncFile(file) {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The database's quotas (supabase/migrations/*_quotas.sql) from the app's RATE_LIMIT_* settings.
 * @typedef {{ clientMax: number, siteMax: number, windowSeconds: number }} Quotas
 */

/**
 * Opens (creating if needed) and migrates the store in `dir`; `undefined` for an in-memory one.
 * `fsync` (default true): each commit reaches the disk before it is reported, so it survives a power
 * loss; false keeps PGlite's default, which survives a crash of the process but not of the machine.
 * `quotas`: the limits to count with from now on, for both tables (the server passes its settings);
 * without, the database keeps what it has (the migration's defaults, or what the last server wrote).
 *
 * @param {string | undefined} dir
 * @param {{ fsync?: boolean, quotas?: Quotas }} [options]
 * @returns {Promise<PGlite>}
 */
export async function openStore(dir, { fsync = true, quotas } = {}) {
  if (dir) await mkdir(dir, { recursive: true });
  const durable = Boolean(dir) && fsync;
  const created = Boolean(dir) && !existsSync(path.join(/** @type {string} */ (dir), 'PG_VERSION'));
  const db = durable
    ? await PGlite.create({ fs: new DurableNodeFS(/** @type {string} */ (dir)), startParams: DURABLE_START })
    : await PGlite.create(dir);
  try {
    if (durable && created) syncTree(/** @type {string} */ (dir));
    await migrate(db, SUPABASE_DIR);
    if (quotas) await setQuotas(db, quotas);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/**
 * Applies pending migrations to an open store; returns the ones applied now.
 *
 * @param {PGlite} db
 * @returns {Promise<string[]>}
 */
export const migrateStore = (db) => migrate(db, SUPABASE_DIR);

/**
 * Sets the database's quotas for both tables (what an operator of hosted Supabase does in SQL).
 *
 * @param {PGlite} db
 * @param {Quotas} quotas
 */
export async function setQuotas(db, { clientMax, siteMax, windowSeconds }) {
  await db.query('update private.quota_limits set client_max = $1, site_max = $2, window_seconds = $3', [
    clientMax,
    siteMax,
    windowSeconds,
  ]);
}

/**
 * Runs one insert as the anon role inside a transaction, as PostgREST does for the public key, with
 * `clientKey` in request.headers as the site sends it to PostgREST (x-client-address), so the same
 * trigger counts it against that client's quota.
 *
 * @param {PGlite} db
 * @param {import('./database.types').Table} table
 * @param {Record<string, string | null | undefined>} row the columns the anon role may write (database.types.ts)
 * @param {string | null} [clientKey] the client's quota key (lib/http/client-address.ts); none: the site ceiling only
 * @returns {Promise<void>}
 */
export async function insertAsAnon(db, table, row, clientKey) {
  const columns = Object.keys(row);
  // Table and column names come from this codebase, never from a visitor; still, refuse anything but plain names.
  if (![table, ...columns].every((name) => /^[a-z_]+$/.test(name))) throw new Error(`bad table or column list for ${table}`);
  const placeholders = columns.map((_, index) => `$${index + 1}`).join(', ');
  await db.transaction(async (tx) => {
    // As PostgREST begins each request: the role and the request's headers, for this transaction only.
    await tx.query(`select set_config('role', 'anon', true), set_config('request.headers', $1, true)`, [
      clientKey ? JSON.stringify({ 'x-client-address': clientKey }) : '{}',
    ]);
    await tx.query(`insert into public.${table} (${columns.join(', ')}) values (${placeholders})`, Object.values(row));
  });
}
