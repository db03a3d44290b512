import 'server-only';

import path from 'node:path';

import { supabaseConfig } from '@/lib/env/public';
import { dataDir, rateLimit, storeFsync, storeTimeoutMs } from '@/lib/env/server';

import { toStoreError } from './errors';
import type { Table, TableInsert } from './database.types';
import { sharedStore } from './pglite';
import { createSupabase } from './supabase';
import type { RequestType } from './request-types';

/**
 * `submissionKey`: the browser's key for the opened form, or null (see supabase/migrations: a repeat is
 * stored once). `clientKey`: the quota key of the address the server vouches for (lib/http/client-address.ts).
 */
type SupportRequestInput = {
  email: string;
  subject: string;
  message: string;
  type: RequestType;
  submissionKey?: string | null;
  clientKey?: string | null;
};

/**
 * Inserts one row as the public (anon) role, counted by the database against `clientKey`'s quota as
 * well as the site's (supabase/migrations/*_quotas.sql); rejects with the backend's error as is.
 */
type Insert = <T extends Table>(table: T, row: TableInsert<T>, clientKey: string | null) => Promise<void>;

/** The header the quota trigger reads the client from; PostgREST hands it over in request.headers. */
const CLIENT_HEADER = 'x-client-address';

const UNIQUE_VIOLATION = '23505';

/** The backend, chosen once from the environment: hosted Supabase, or PGlite under DATA_DIR. */
function createInsert(): Insert {
  const config = supabaseConfig();
  if (config) {
    const supabase = createSupabase(config);
    // A plain insert with no .select(): the public key may not read rows back.
    return async (table, row, clientKey) => {
      // supabase-js resolves insert()'s row type from a literal table name, not from a type parameter;
      // Insert's signature has already checked the row against TableInsert of its table.
      const query = supabase.from(table).insert(row as never);
      // Without it PostgREST would see this server as the client, and every visitor would share one quota.
      const { error, status } = await (clientKey ? query.setHeader(CLIENT_HEADER, clientKey) : query);
      // The status tells a 429 from anything in front of PostgREST that sends no database code.
      if (error) throw Object.assign(error, { status });
    };
  }
  const dir = path.join(dataDir(), 'pglite');
  const options = embeddedOptions();
  return (table, row, clientKey) => sharedStore(dir, options).insert(table, row, clientKey);
}

/** The embedded store's settings; its database counts quotas with the server's RATE_LIMIT_* settings. */
function embeddedOptions() {
  const { max, siteMax, windowSeconds } = rateLimit();
  return { timeoutMs: storeTimeoutMs(), fsync: storeFsync(), quotas: { clientMax: max, siteMax, windowSeconds } };
}

/**
 * Opens the embedded store now, when the server starts (instrumentation.ts), so the first visitor does
 * not wait for it, and a store that cannot open (another server holds it, a broken directory) stops the
 * start with its reason. Nothing to open with a hosted backend.
 */
export async function openStoreAtStart(): Promise<void> {
  if (supabaseConfig()) return;
  await sharedStore(path.join(dataDir(), 'pglite'), embeddedOptions()).opened;
}

let insert: Insert | undefined;

async function write<T extends Table>(
  table: T,
  row: TableInsert<T>,
  clientKey: string | null,
  isSuccess: (error: unknown) => boolean = () => false,
) {
  try {
    await (insert ??= createInsert())(table, row, clientKey);
  } catch (error) {
    if (!isSuccess(error)) throw toStoreError(error, `${table} insert`);
  }
}

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION;

/**
 * Stores a request with status 'new' (the column default); resolves only once the row is committed.
 * A repeat of a stored request resolves too and stores nothing (and uses no quota): the database's
 * trigger skips it, or, when two copies race, its unique index refuses the second.
 */
export async function saveSupportRequest({ email, subject, message, type, submissionKey, clientKey }: SupportRequestInput): Promise<void> {
  const row: TableInsert<'support_requests'> = {
    email,
    subject,
    message,
    type,
    ...(submissionKey ? { submission_key: submissionKey } : {}),
  };
  await write('support_requests', row, clientKey ?? null, isUniqueViolation);
}

/**
 * Subscribes an address; an address already on the list is a success too, and says nothing about who
 * subscribed. `clientKey` as for saveSupportRequest.
 */
export async function saveSubscriber(email: string, clientKey?: string | null): Promise<void> {
  // The trigger skips known addresses, but two sign-ups at the same instant can still meet the unique index.
  await write('newsletter_subscribers', { email }, clientKey ?? null, isUniqueViolation);
}
