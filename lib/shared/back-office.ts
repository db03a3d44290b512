import { REQUEST_STATUSES, type RequestFilter, type RequestStatus } from './back-office-shapes.ts';
import { isLanguageTag } from './languages.ts';

export * from './back-office-shapes.ts';

/**
 * The back office's API, as both sides see it: the server's route (app/api/back-office) and the Studio's
 * tool (studio/back-office). Its paths, the shapes of what goes back and forth, and the one validation
 * of what is sent, run in the browser before a request and again on the server. Nothing here is secret.
 *
 * Every request that names an address is a POST with a JSON body, so no address is ever in a URL, and
 * so in no proxy's or server's log.
 */

export const BACK_OFFICE_PATH = '/api/back-office';

/** Each endpoint's path below BACK_OFFICE_PATH. */
export const OFFICE_ENDPOINTS = {
  me: 'me',
  requests: 'requests/list',
  markRequest: 'requests/mark',
  subscriberCounts: 'subscribers/counts',
  findSubscriber: 'subscribers/find',
  notices: 'notices',
  recipients: 'notices/recipients',
  told: 'notices/told',
  person: 'person',
  exportPerson: 'person/export',
  erasePerson: 'person/erase',
  accessLog: 'access-log',
} as const;
export type OfficeEndpoint = (typeof OFFICE_ENDPOINTS)[keyof typeof OFFICE_ENDPOINTS];

export const officePath = (endpoint: OfficeEndpoint) => `${BACK_OFFICE_PATH}/${endpoint}`;

/** The CSV of everyone a version was announced to: a GET (it names no address), opened as a download. */
export const noticeCsvPath = (date: string) => `${BACK_OFFICE_PATH}/${OFFICE_ENDPOINTS.notices}/${date}/csv`;

/** Rows per page when the browser asks for none, and the most it may ask for. */
export const PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

// What the browser sends.
export type ListRequestsBody = { filter: RequestFilter; cursor: string | null; limit?: number };
export type MarkBody = { id: string; answered: boolean };
export type AddressBody = { email: string };
export type RecipientsBody = { date: string; cursor: string | null; limit?: number };
export type ToldBody = { date: string; email: string };
export type CursorBody = { cursor: string | null; limit?: number };

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** The longest address mail takes (RFC 5321), and so the longest search. */
export const MAX_ADDRESS = 254;
const MAX_CURSOR = 1024;
// Controls and format characters (zero-width, bidirectional) are in no stored address: the forms refuse them.
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CURSOR = /^[A-Za-z0-9_-]+$/;
const REQUEST_TYPE = /^[a-z][a-z-]{0,31}$/;

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Search text for addresses (the start of one): trimmed, at most an address long, nothing invisible. */
export function parseAddressSearch(value: unknown): Parsed<string> {
  if (typeof value !== 'string') return fail('An address must be text.');
  const text = value.trim();
  if (!text || [...text].length > MAX_ADDRESS || INVISIBLE.test(text)) return fail('That is not an address one could search for.');
  return ok(text);
}

/**
 * One whole address, as someone presents it: the store compares it without case. It is not held to the
 * forms' stricter rule, so an address stored under an older rule can still be found and erased.
 */
export function parseAddress(value: unknown): Parsed<string> {
  const text = parseAddressSearch(value);
  if (!text.ok) return text;
  const at = text.value.lastIndexOf('@');
  return at > 0 && at < text.value.length - 1 && !/\s/.test(text.value) ? text : fail('That is not an email address.');
}

/** A version's date, YYYY-MM-DD, and a day that exists. */
export function parseDate(value: unknown): Parsed<string> {
  const [, y, m, d] = (typeof value === 'string' && DATE.exec(value)) || [];
  const day = y && new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return day && day.toISOString().slice(0, 10) === value ? ok(value) : fail('A version is named by its date, YYYY-MM-DD.');
}

/** A cursor the server gave (opaque here; the server decodes and checks it), or null for the first page. */
export function parseCursor(value: unknown): Parsed<string | null> {
  if (value === null || value === undefined) return ok(null);
  return typeof value === 'string' && value.length <= MAX_CURSOR && CURSOR.test(value)
    ? ok(value)
    : fail('That page cursor is not one of ours.');
}

export function parseLimit(value: unknown): Parsed<number> {
  if (value === undefined) return ok(PAGE_SIZE);
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_PAGE_SIZE
    ? ok(value as number)
    : fail(`A page holds 1 to ${MAX_PAGE_SIZE} rows.`);
}

/**
 * The requests' filters. A type is matched, not stored, so any short name is taken (an unknown one finds
 * nothing); a language must be a tag of the site's spelling, or '' for the default language; the address is a search by its start.
 */
export function parseFilter(value: unknown): Parsed<RequestFilter> {
  if (value === undefined || value === null) return ok({});
  if (!isRecord(value)) return fail('Filters are an object.');
  const filter: RequestFilter = {};
  const { type, language, status, email } = value;
  if (type !== undefined) {
    if (typeof type !== 'string' || !REQUEST_TYPE.test(type)) return fail('Unknown request type.');
    filter.type = type;
  }
  if (language !== undefined) {
    // '' is the default language, as the store keeps it (a request follows the site's default).
    if (typeof language !== 'string' || (language !== '' && !isLanguageTag(language))) return fail('Unknown language.');
    filter.language = language;
  }
  if (status !== undefined) {
    if (!(REQUEST_STATUSES as readonly unknown[]).includes(status)) return fail('A status is "new" or "answered".');
    filter.status = status as RequestStatus;
  }
  if (email !== undefined && email !== '') {
    const search = parseAddressSearch(email);
    if (!search.ok) return search;
    filter.email = search.value;
  }
  return ok(filter);
}

type Fields<T> = { [K in keyof T]-?: (value: unknown) => Parsed<T[K]> };

/** A JSON body with exactly these fields, each parsed by its own rule (a missing one is `undefined` to its rule). */
function parseObject<T>(fields: Fields<T>) {
  return (body: unknown): Parsed<T> => {
    if (!isRecord(body)) return fail('The request needs a JSON object.');
    const unknown = Object.keys(body).find((key) => !(key in fields));
    if (unknown !== undefined) return fail(`Unexpected field "${unknown}".`);
    const value: Partial<T> = {};
    for (const key of Object.keys(fields) as (keyof T & string)[]) {
      const field = fields[key](body[key]);
      if (!field.ok) return field;
      if (field.value !== undefined) value[key] = field.value;
    }
    return ok(value as T);
  };
}

const parseId = (value: unknown): Parsed<string> =>
  typeof value === 'string' && UUID.test(value) ? ok(value.toLowerCase()) : fail('That is not a request of the store.');
const parseBoolean = (value: unknown): Parsed<boolean> => (typeof value === 'boolean' ? ok(value) : fail('"answered" is true or false.'));

export const parseListRequests = parseObject<Required<ListRequestsBody>>({ filter: parseFilter, cursor: parseCursor, limit: parseLimit });
export const parseMark = parseObject<MarkBody>({ id: parseId, answered: parseBoolean });
export const parseAddressBody = parseObject<AddressBody>({ email: parseAddress });
export const parseRecipients = parseObject<Required<RecipientsBody>>({ date: parseDate, cursor: parseCursor, limit: parseLimit });
export const parseTold = parseObject<ToldBody>({ date: parseDate, email: parseAddress });
export const parseCursorBody = parseObject<Required<CursorBody>>({ cursor: parseCursor, limit: parseLimit });
