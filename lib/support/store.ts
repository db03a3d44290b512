import 'server-only';

import path from 'node:path';

import { supabaseConfig } from '@/lib/env/public';
import { dataDir } from '@/lib/env/server';

import { StoreError, toStoreError } from './errors';
import { sharedStore, type Table } from './pglite';
import { createSupabase } from './supabase';
import type { RequestType } from './validation';

export { StoreError };
export type { RequestType };
export type SupportRequestInput = { email: string; subject: string; message: string; type: RequestType };

/** Inserts one row as the public (anon) role; rejects with the backend's error as is. */
type Insert = (table: Table, row: Record<string, string>) => Promise<void>;

const UNIQUE_VIOLATION = '23505';

/** The backend, chosen once from the environment: hosted Supabase, or PGlite under DATA_DIR. */
function createInsert(): Insert {
  const config = supabaseConfig();
  if (config) {
    const supabase = createSupabase(config);
    // A plain insert with no .select(): the public key may not read rows back.
    return async (table, row) => {
      const { error } = await supabase.from(table).insert(row);
      if (error) throw error;
    };
  }
  const dir = path.join(dataDir(), 'pglite');
  return (table, row) => sharedStore(dir).insert(table, row);
}

let insert: Insert | undefined;

async function write(table: Table, row: Record<string, string>, isSuccess: (error: unknown) => boolean = () => false) {
  try {
    await (insert ??= createInsert())(table, row);
  } catch (error) {
    if (!isSuccess(error)) throw toStoreError(error, `${table} insert`);
  }
}

/** Stores a request with status 'new' (the column default); resolves only once the row is committed. */
export async function saveSupportRequest({ email, subject, message, type }: SupportRequestInput): Promise<void> {
  await write('support_requests', { email, subject, message, type });
}

/** Subscribes an address; an address already on the list is a success too, and says nothing about who subscribed. */
export async function saveSubscriber(email: string): Promise<void> {
  // The trigger skips known addresses, but two sign-ups at the same instant can still meet the unique index.
  await write('newsletter_subscribers', { email }, (error) => (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION);
}
