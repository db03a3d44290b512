import 'server-only';

import { backend } from './backend';
import type { FunctionArgs, FunctionResult, StoreFunction } from './database.types';
import { decodeCursor } from './page-cursor';
import { MAX_PAGE_ROWS, need, pageOf, rowLimit, toRequest, toSubscriber } from './office-rows';
import type { Erasure } from './office-rows';
import type {
  AccessAction,
  AccessEntry,
  NoticeRecipient,
  NoticeVersion,
  OfficeRequest,
  OfficeSubscriber,
  Page,
  PersonData,
  RequestFilter,
  SubscriberCount,
} from '@/lib/shared/back-office-shapes';

/**
 * What the back office reads and changes in the store (supabase/migrations/*_back_office.sql), every call
 * with the server's secret key: the requests to answer, the subscribers, the record of each notice, one
 * person's data, its erasure, the access log and the retention sweep. Who may ask is decided before any
 * of these is called (lib/back-office). Times are ISO strings with microseconds, as the store gives them.
 */

export type * from '@/lib/shared/back-office-shapes';
export type { Erasure };
export { MAX_PAGE_ROWS };

/** Any type, language or status (the store's word for no filter: '' is a language). */
const ANY = '*';
/** Keys above every row's: the first page of requests, and of the access log. */
const NEWEST_REQUEST = { at: 'infinity', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };
const ABOVE_EVERY_ID = Number.MAX_SAFE_INTEGER;

const call = <F extends StoreFunction>(fn: F, args: FunctionArgs<F>): Promise<FunctionResult<F>> => backend().call(fn, args, 'secret');

export async function listRequests(filter: RequestFilter, cursor: string | null, limit: number): Promise<Page<OfficeRequest>> {
  const after = cursor === null ? NEWEST_REQUEST : decodeCursor(cursor, { at: 'time', id: 'uuid' });
  const rows = await call('office_requests', {
    type_is: filter.type ?? ANY,
    language_is: filter.language ?? ANY,
    status_is: filter.status ?? ANY,
    email_prefix: filter.email?.trim() ?? '',
    after_at: after.at,
    after_id: after.id,
    max_rows: rowLimit(limit) + 1,
  });
  return pageOf(rows, limit, toRequest, (row) => ({ at: need(row.created_at, 'request time'), id: need(row.id, 'request id') }));
}

/** Marks a request answered by `actor` (the first who and when stay) or reopens it; null: no such request. */
export async function markRequest(id: string, answered: boolean, actor: string): Promise<OfficeRequest | null> {
  const [row] = await call('office_mark_request', { request_id: id, answered, actor });
  return row ? toRequest(row) : null;
}

export const subscriberCounts = async (): Promise<SubscriberCount[]> =>
  (await call('office_subscriber_counts', {})).map((row) => ({
    status: need(row.status, 'subscriber status'),
    language: need(row.language, 'subscriber language'),
    count: need(row.count, 'count'),
  }));

export async function findSubscriber(email: string): Promise<OfficeSubscriber | null> {
  const [row] = await call('office_find_subscriber', { address: email });
  return row ? toSubscriber(row) : null;
}

export const noticeVersions = async (): Promise<NoticeVersion[]> =>
  (await call('office_notice_versions', {})).map((row) => ({
    date: need(row.version_date, 'version date'),
    announcedAt: need(row.announced_at, 'announcement time'),
    withdrawnAt: row.withdrawn_at,
    told: row.told ?? 0,
    pending: row.pending ?? 0,
    failed: row.failed ?? 0,
    cancelled: row.cancelled ?? 0,
    firstSent: row.first_sent,
    lastSent: row.last_sent,
  }));

/** Version `date`'s recipients in the order they were queued. */
export async function noticeRecipients(date: string, cursor: string | null, limit: number): Promise<Page<NoticeRecipient>> {
  const after = cursor === null ? 0 : Number(decodeCursor(cursor, { id: 'id' }).id);
  const rows = await call('office_notice_recipients', { version_date: date, after_id: after, max_rows: rowLimit(limit) + 1 });
  return pageOf(
    rows,
    limit,
    (row) => ({ email: row.email, status: need(row.status, 'notice status'), sentAt: row.sent_at }),
    (row) => ({ id: String(need(row.id, 'notice id')) }),
  );
}

/** Whether `email` was told about version `date`, also after its erasure (by `addressHmac`, its HMAC). */
export async function wasTold(
  date: string,
  email: string,
  addressHmac: string,
): Promise<{ told: boolean; sentAt: string | null; erased: boolean }> {
  const [row] = await call('office_was_told', { version_date: date, address: email, address_hmac: addressHmac });
  return { told: row?.told ?? false, sentAt: row?.sent_at ?? null, erased: row?.erased ?? false };
}

/** Everything the store holds about `email` (any letter case); null when it holds nothing. */
export async function personData(email: string): Promise<PersonData | null> {
  const address = { address: email };
  const [requests, [subscription], emails] = await Promise.all([
    call('office_person_requests', address),
    call('office_find_subscriber', address),
    call('office_person_emails', address),
  ]);
  if (requests.length === 0 && !subscription && emails.length === 0) return null;
  return {
    email,
    requests: requests.map(toRequest),
    subscription: subscription ? toSubscriber(subscription) : null,
    emails: emails.map((row) => ({
      kind: need(row.kind, 'email kind'),
      ref: need(row.ref, 'email ref'),
      status: need(row.status, 'email status'),
      sentAt: row.sent_at,
      createdAt: need(row.created_at, 'email time'),
    })),
  };
}

/**
 * Erases `email` from every table in one transaction, keeping its notices under `addressHmac`. 'busy': a
 * sender holds one of its emails until `until`; ask again after it. Erasing again answers 'nothing-held'.
 */
export async function erasePerson(email: string, addressHmac: string, actor: string): Promise<Erasure> {
  const [row] = await call('office_erase', { address: email, address_hmac: addressHmac, actor });
  const outcome = need(row?.outcome ?? null, 'erasure outcome');
  if (outcome === 'busy') return { kind: 'busy', until: need(row!.busy_until, 'lease end') };
  if (outcome === 'nothing-held') return { kind: 'nothing-held' };
  const { subscribers, tokens, emails, requests, notices_kept: noticesKept } = row!;
  return {
    kind: 'erased',
    rows: {
      subscribers: subscribers ?? 0,
      tokens: tokens ?? 0,
      emails: emails ?? 0,
      requests: requests ?? 0,
      noticesKept: noticesKept ?? 0,
    },
  };
}

export async function logAccess(entry: Omit<AccessEntry, 'at'>): Promise<void> {
  await call('office_log_access', { actor: entry.actor, action: entry.action, subject: entry.subject ?? '', rows: entry.rows });
}

/** The access log, newest first. */
export async function accessLog(cursor: string | null, limit: number): Promise<Page<AccessEntry>> {
  const before = cursor === null ? ABOVE_EVERY_ID : Number(decodeCursor(cursor, { id: 'id' }).id);
  const rows = await call('office_access_log', { before_id: before, max_rows: rowLimit(limit) + 1 });
  return pageOf(
    rows,
    limit,
    (row) => ({
      at: need(row.at, 'access time'),
      actor: need(row.actor, 'actor'),
      action: need(row.action, 'action') as AccessAction,
      rows: row.rows ?? 0,
      subject: row.subject,
    }),
    (row) => ({ id: String(need(row.id, 'access id')) }),
  );
}

/**
 * Retention: deletes up to `maxRows` requests answered more than `answeredDays` ago, or never answered
 * and sent more than `unansweredDays` ago; returns how many (fewer than `maxRows`: none is left).
 */
export const sweepRequests = async (answeredDays: number, unansweredDays: number, maxRows: number): Promise<number> =>
  (await call('office_sweep_requests', { answered_days: answeredDays, unanswered_days: unansweredDays, max_rows: maxRows })) ?? 0;
