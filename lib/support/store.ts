import 'server-only';

import path from 'node:path';

import { supabaseConfig } from '@/lib/env/public';
import { dataDir, storeFsync, storeTimeoutMs } from '@/lib/env/server';

import { toStoreError } from './errors';
import type { Table, TableInsert } from './database.types';
import { sharedStore } from './pglite';
import { createSupabase } from './supabase';
import type { RequestType } from './request-types';

/** `submissionKey`: the browser's key for the opened form, or null (see supabase/migrations: a repeat is stored once). */
type SupportRequestInput = { email: string; subject: string; message: string; type: RequestType; submissionKey?: string | null };

/** Inserts one row as the public (anon) role; rejects with the backend's error as is. */
type Insert = <T extends Table>(table: T, row: TableInsert<T>) => Promise<void>;

const UNIQUE_VIOLATION = '23505';

/** The backend, chosen once from the environment: hosted Supabase, or PGlite under DATA_DIR. */
function createInsert(): Insert {
  const config = supabaseConfig();
  if (config) {
    const supabase = createSupabase(config);
    // A plain insert with no .select(): the public key may not read rows back.
    return async (table, row) => {
      // supabase-js resolves insert()'s row type from a literal table name, not from a type parameter;
      // Insert's signature has already checked the row against TableInsert of its table.
      const { error } = await supabase.from(table).insert(row as never);
      if (error) throw error;
    };
  }
  const dir = path.join(dataDir(), 'pglite');
  const options = { timeoutMs: storeTimeoutMs(), fsync: storeFsync() };
  return (table, row) => sharedStore(dir, options).insert(table, row);
}

/**
 * Opens the embedded store now, when the server starts (instrumentation.ts), so the first visitor does
 * not wait for it, and a store that cannot open (another server holds it, a broken directory) stops the
 * start with its reason. Nothing to open with a hosted backend.
 */
export async function openStoreAtStart(): Promise<void> {
  if (supabaseConfig()) return;
  await sharedStore(path.join(dataDir(), 'pglite'), { timeoutMs: storeTimeoutMs(), fsync: storeFsync() }).opened;
}

let insert: Insert | undefined;

async function write<T extends Table>(table: T, row: TableInsert<T>, isSuccess: (error: unknown) => boolean = () => false) {
  try {
    await (insert ??= createInsert())(table, row);
  } catch (error) {
    if (!isSuccess(error)) throw toStoreError(error, `${table} insert`);
  }
}

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION;

/**
 * Stores a request with status 'new' (the column default); resolves only once the row is committed.
 * A repeat of a stored request resolves too and stores nothing: the database's trigger skips it, or,
 * when two copies race, its unique index refuses the second.
 */
export async function saveSupportRequest({ email, subject, message, type, submissionKey }: SupportRequestInput): Promise<void> {
  const row: TableInsert<'support_requests'> = { email, subject, message, type, ...(submissionKey ? { submission_key: submissionKey } : {}) };
  await write('support_requests', row, isUniqueViolation);
}

/** Subscribes an address; an address already on the list is a success too, and says nothing about who subscribed. */
export async function saveSubscriber(email: string): Promise<void> {
  // The trigger skips known addresses, but two sign-ups at the same instant can still meet the unique index.
  await write('newsletter_subscribers', { email }, isUniqueViolation);
}
