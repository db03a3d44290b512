import 'server-only';

import path from 'node:path';

import { supabaseConfig } from '@/lib/env/public';
import { dataDir } from '@/lib/env/server';

import { StoreError, toStoreError, type BackendError } from './errors';
import { insertAsAnon, sharedStore } from './pglite';
import { createSupabase } from './supabase';
import type { SupportRequest } from './validation';

export { StoreError };

type Table = 'support_requests' | 'newsletter_subscribers';
type Insert = (table: Table, row: Record<string, string>) => Promise<BackendError | null>;

const UNIQUE_VIOLATION = '23505';

/** The backend, chosen once from the environment: hosted Supabase, or PGlite under DATA_DIR. */
function createInsert(): Insert {
  const config = supabaseConfig();
  if (config) {
    const supabase = createSupabase(config);
    // A plain insert with no .select(): the public key may not read rows back.
    return async (table, row) => {
      try {
        const { error } = await supabase.from(table).insert(row);
        return error;
      } catch (error) {
        return { message: error instanceof Error ? error.message : String(error) };
      }
    };
  }
  const dir = path.join(dataDir(), 'pglite');
  return async (table, row) => {
    try {
      await insertAsAnon(await sharedStore(dir), table, row);
      return null;
    } catch (error) {
      return error as BackendError;
    }
  };
}

let insert: Insert | undefined;

async function write(table: Table, row: Record<string, string>, context: string, isSuccess = (_: BackendError) => false) {
  const error = await (insert ??= createInsert())(table, row);
  if (error && !isSuccess(error)) throw toStoreError(error, context);
}

/** Stores a request with status 'new' (the column default); resolves only once the row is committed. */
export async function saveSupportRequest(request: SupportRequest): Promise<void> {
  await write('support_requests', { ...request }, 'support request insert');
}

/** Subscribes an address; an address already on the list is a success too. */
export async function saveSubscriber(email: string): Promise<void> {
  // Two sign-ups of one address at the same instant can still meet the unique index.
  await write('newsletter_subscribers', { email }, 'subscriber insert', (error) => error.code === UNIQUE_VIOLATION);
}
