import { encodeCursor } from './page-cursor';
import type { FunctionResult } from './database.types';

/**
 * The back office's shapes (lib/store/back-office.ts), and how the rows of its store functions become
 * them: camelCase, with what the migration never leaves null checked.
 */

// The shapes are the API's (lib/shared/back-office-shapes.ts): the store returns them as the browser gets them.
import type { OfficeRequest, OfficeSubscriber, Page } from '@/lib/shared/back-office-shapes';

export type Erasure = { kind: 'erased'; rows: Record<string, number> } | { kind: 'nothing-held' } | { kind: 'busy'; until: string };

/** The most rows one page may hold (the API asks for fewer; an export pages through with this). */
export const MAX_PAGE_ROWS = 500;
/** A value the migration never leaves null (SQL results are typed `| null`). */
export function need<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`the store returned no ${what}`);
  return value;
}

export function rowLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_ROWS) throw new RangeError(`a page holds 1 to ${MAX_PAGE_ROWS} rows`);
  return limit;
}

/** A page from `limit + 1` rows: the extra one only says that there is a next page. */
export function pageOf<R, T>(rows: R[], limit: number, toRow: (row: R) => T, keysOf: (row: R) => Record<string, string>): Page<T> {
  const kept = rows.slice(0, limit);
  return { rows: kept.map(toRow), next: rows.length > limit ? encodeCursor(keysOf(kept.at(-1)!)) : null };
}

type RequestRow = FunctionResult<'office_requests'>[number];

export function toRequest(row: RequestRow): OfficeRequest {
  const status = need(row.status, 'request status');
  if (status !== 'new' && status !== 'answered') throw new Error(`the store returned the unknown request status ${status}`);
  return {
    id: need(row.id, 'request id'),
    createdAt: need(row.created_at, 'request time'),
    type: need(row.type, 'request type'),
    email: need(row.email, 'request address'),
    subject: need(row.subject, 'request subject'),
    message: need(row.message, 'request message'),
    language: need(row.language, 'request language'),
    status,
    answeredAt: row.answered_at,
    answeredBy: row.answered_by,
  };
}

type SubscriberRow = FunctionResult<'office_find_subscriber'>[number];

export const toSubscriber = (row: SubscriberRow): OfficeSubscriber => ({
  email: need(row.email, 'subscriber address'),
  status: need(row.status, 'subscriber status'),
  language: need(row.language, 'subscriber language'),
  createdAt: need(row.created_at, 'subscriber time'),
  confirmedAt: row.confirmed_at,
});
