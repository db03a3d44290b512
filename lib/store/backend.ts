import 'server-only';

import path from 'node:path';

import { supabaseConfig, type SupabaseConfig } from '@/lib/env/public';
import { dataDir, rateLimit, storeFsync, storeTimeoutMs } from '@/lib/env/server';

import type { FunctionArgs, FunctionResult, StoreFunction, Table, TableInsert } from './database.types';
import { sharedStore } from './pglite';
import { createSupabase, type KeyKind } from './supabase';

/**
 * The store's backend, chosen once from the environment: hosted Supabase (PostgREST), or PGlite under
 * DATA_DIR in its worker thread. Both run the same migrations with the same roles: the public key is
 * PostgREST's anon role and the embedded store's `anon`, the secret key `service_role` in both.
 */
export type Backend = {
  /**
   * Inserts one row as the public (anon) role, counted by the database against `clientKey`'s quota as
   * well as the site's (supabase/migrations/*_quotas.sql); rejects with the backend's error as is.
   */
  insert<T extends Table>(table: T, row: TableInsert<T>, clientKey: string | null): Promise<void>;
  /** Calls a function of schema public with `key`'s rights; resolves to its result as PostgREST gives it. */
  call<F extends StoreFunction>(fn: F, args: FunctionArgs<F>, key: KeyKind): Promise<FunctionResult<F>>;
  /** Resolves once the store is open (the embedded one opens and migrates; a hosted one is open). */
  opened(): Promise<void>;
};

/** The header the quota trigger reads the client from; PostgREST hands it over in request.headers. */
const CLIENT_HEADER = 'x-client-address';

function supabaseBackend(config: SupabaseConfig): Backend {
  const clients = new Map<KeyKind, ReturnType<typeof createSupabase>>();
  const client = (kind: KeyKind) => clients.get(kind) ?? clients.set(kind, createSupabase(config, kind)).get(kind)!;
  return {
    // A plain insert with no .select(): the public key may not read rows back.
    async insert(table, row, clientKey) {
      // supabase-js resolves insert()'s row type from a literal table name, not from a type parameter;
      // the signature has already checked the row against TableInsert of its table.
      const query = client('public')
        .from(table)
        .insert(row as never);
      // Without it PostgREST would see this server as the client, and every visitor would share one quota.
      const { error, status } = await (clientKey ? query.setHeader(CLIENT_HEADER, clientKey) : query);
      // The status tells a 429 from anything in front of PostgREST that sends no database code.
      if (error) throw Object.assign(error, { status });
    },
    async call(fn, args, key) {
      // As for insert: rpc()'s types want a literal name; the signature has checked `args` for `fn`.
      const { data, error, status } = await client(key).rpc(fn as never, args as never);
      if (error) throw Object.assign(error, { status });
      return data;
    },
    opened: async () => {},
  };
}

/** The embedded store's settings; its database counts quotas with the server's RATE_LIMIT_* settings. */
function embeddedBackend(): Backend {
  const dir = path.join(dataDir(), 'pglite');
  const { max, siteMax, windowSeconds } = rateLimit();
  const options = { timeoutMs: storeTimeoutMs(), fsync: storeFsync(), quotas: { clientMax: max, siteMax, windowSeconds } };
  const store = () => sharedStore(dir, options);
  return {
    insert: (table, row, clientKey) => store().insert(table, row, clientKey),
    call: (fn, args, key) => store().call(key === 'secret' ? 'service_role' : 'anon', fn, args),
    opened: () => store().opened,
  };
}

let current: Backend | undefined;

export function backend(): Backend {
  if (current) return current;
  const config = supabaseConfig();
  return (current = config ? supabaseBackend(config) : embeddedBackend());
}
