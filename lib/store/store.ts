import 'server-only';

import { toStoreError } from './errors';
import type { Table, TableInsert } from './database.types';
import { backend } from './backend';
import type { RequestType } from '@/lib/forms/request-types';

/**
 * `submissionKey`: the browser's key for the opened form, or null (see supabase/migrations: a repeat is
 * stored once). `clientKey`: the quota key of the address the server vouches for (lib/http/client-address.ts).
 */
type SupportRequestInput = {
  email: string;
  subject: string;
  message: string;
  type: RequestType;
  /** The tag of the page it came from, or '' (the column's default) for the default language. */
  language?: string;
  submissionKey?: string | null;
  clientKey?: string | null;
};

/**
 * `language`: the tag of the page signed up on, which a known address takes too; with '' the column
 * keeps '' (the default language) or, for a known address, the language it had.
 */
type SubscriberInput = { email: string; language?: string; clientKey?: string | null };

const UNIQUE_VIOLATION = '23505';

/**
 * Opens the embedded store now, when the server starts (instrumentation.ts), so the first visitor does
 * not wait for it, and a store that cannot open (another server holds it, a broken directory) stops the
 * start with its reason. Nothing to open with a hosted backend.
 */
export const openStoreAtStart = (): Promise<void> => backend().opened();

async function write<T extends Table>(
  table: T,
  row: TableInsert<T>,
  clientKey: string | null,
  isSuccess: (error: unknown) => boolean = () => false,
) {
  try {
    await backend().insert(table, row, clientKey);
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
export async function saveSupportRequest({
  email,
  subject,
  message,
  type,
  language,
  submissionKey,
  clientKey,
}: SupportRequestInput): Promise<void> {
  const row: TableInsert<'support_requests'> = {
    email,
    subject,
    message,
    type,
    ...(language ? { language } : {}),
    ...(submissionKey ? { submission_key: submissionKey } : {}),
  };
  await write('support_requests', row, clientKey ?? null, isUniqueViolation);
}

/**
 * Signs an address up: a new one is stored pending with its confirmation email queued, a known one is
 * asked to confirm again at most once a day (supabase/migrations/*_double_opt_in.sql). Either is the
 * same success and takes the same quota, so the answer says nothing about who subscribed. `clientKey`
 * as for saveSupportRequest.
 */
export async function saveSubscriber({ email, language, clientKey }: SubscriberInput): Promise<void> {
  // The trigger takes sign-ups of one address in turn, but the unique index is the last word on a race.
  await write('newsletter_subscribers', { email, ...(language ? { language } : {}) }, clientKey ?? null, isUniqueViolation);
}
