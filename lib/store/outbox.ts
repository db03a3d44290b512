import 'server-only';

import { backend } from './backend';
import type { FunctionArgs, FunctionResult, StoreFunction } from './database.types';

/**
 * The mail outbox (supabase/migrations/*_mail_outbox.sql) as the senders use it: every call with the
 * server's secret key, which the public key may not make.
 */

export type MailKind = 'confirmation' | 'notice';

/**
 * A claimed message and what its email needs. `token`: a confirmation's link token; `summary`: a notice's;
 * `language`: the subscriber's, a tag or '' for the default language.
 */
export type ClaimedMail = {
  id: number;
  kind: MailKind;
  attempt: number;
  ref: string;
  subscriberId: string;
  email: string;
  token: string | null;
  unsubscribeToken: string;
  summary: string | null;
  language: string;
};

const call = <F extends StoreFunction>(fn: F, args: FunctionArgs<F>): Promise<FunctionResult<F>> => backend().call(fn, args, 'secret');

type ClaimRow = FunctionResult<'mail_claim'>[number];

/** A row as the function returns it, with what the migration guarantees (never null) checked. */
function toClaimed(row: ClaimRow): ClaimedMail {
  const { outbox_id: id, kind, attempt, ref, subscriber_id: subscriberId, email, unsubscribe_token: unsubscribeToken } = row;
  if (id === null || attempt === null || ref === null || subscriberId === null || email === null || unsubscribeToken === null) {
    throw new Error(`mail_claim returned an incomplete row (${id ?? 'no id'})`);
  }
  if (kind !== 'confirmation' && kind !== 'notice') throw new Error(`mail_claim returned the unknown kind ${kind}`);
  return {
    id,
    kind,
    attempt,
    ref,
    subscriberId,
    email,
    unsubscribeToken,
    token: row.token,
    summary: row.summary,
    language: row.language ?? '',
  };
}

export async function claimMail(worker: string, maxRows: number, leaseSeconds: number, maxAttempts: number): Promise<ClaimedMail[]> {
  const rows = await call('mail_claim', { worker, max_rows: maxRows, lease_seconds: leaseSeconds, max_attempts: maxAttempts });
  return rows.map(toClaimed);
}

export const recordSent = async (id: number, messageId: string, response: string) =>
  void (await call('mail_sent', { outbox_id: id, message_id: messageId, smtp_response: response }));

/** Attempt `attempt` of message `id` failed: tried again in `retrySeconds`, or never again when `giveUp`. */
export const recordFailure = async (id: number, attempt: number, error: string, retry: { retrySeconds: number; giveUp: boolean }) =>
  void (await call('mail_failed', { outbox_id: id, attempt, error, retry_seconds: retry.retrySeconds, give_up: retry.giveUp }));

/** Seconds until a message is due or a lease runs out; null when the outbox holds nothing to send. */
export const secondsUntilDue = async (): Promise<number | null> => call('mail_next_due', {});

/** Forgets up to `maxRows` addresses not confirmed within their week; returns how many. */
export const forgetUnconfirmed = async (maxRows: number): Promise<number> => (await call('mail_purge', { max_rows: maxRows })) ?? 0;

export const announceVersion = async (date: string, summary: string | null, announcedAt: string): Promise<number> =>
  (await call('mail_announce', { version_date: date, summary: summary ?? '', announced_at: announcedAt })) ?? 0;

export const withdrawVersion = async (date: string): Promise<number> => (await call('mail_withdraw', { version_date: date })) ?? 0;

/** The days of the versions whose announcement the store has recorded, withdrawn since or not. */
export const recordedAnnouncements = async (): Promise<string[]> =>
  (await call('notice_summary', {})).flatMap(({ version_date: date }) => (date ? [date] : []));
