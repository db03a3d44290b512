/**
 * The one validation of what visitors send, run in the browser before submit
 * and again on the server. Limits match the CHECK constraints in supabase/migrations.
 * Problems are message codes (messages.ts); the words are the editor's.
 */

import type { FieldName, FormMessage } from './messages';
import { servedLanguage } from '@/lib/shared/language-gate';

import { isRequestType, type RequestType } from './request-types';

export const LIMITS = { email: 254, subject: 200, message: 5000 } as const satisfies Record<FieldName, number>;

export type SupportRequest = { email: string; subject: string; message: string; type: RequestType };
export type Validated<T> = { ok: true; value: T } | { ok: false; message: FormMessage };

// One address, no spaces or line breaks (which would also allow header injection), a dot in the domain.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/u;
// RFC 5321: a local part of at most 64 octets (counted here as characters, which is stricter for none
// that mail servers take), and a domain of labels none of which is empty ("a@..co", "a@b..co").
const LOCAL_MAX = 64;
const EMPTY_LABEL = /@\.|\.\./;

type FieldSource = FormData | Record<string, unknown>;

function field(source: FieldSource, name: string): string {
  const value = source instanceof FormData ? source.get(name) : source[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** Characters as Postgres counts them (code points), so an emoji is one, as the CHECK limits see it. */
const length = (value: string) => [...value].length;

// Postgres text cannot hold NUL; refusing it here gives a clear message instead of a failed insert.
const hasNul = (...values: string[]) => values.some((value) => value.includes('\u0000'));

// Controls (C0, C1 with U+0085 NEL) and format characters (bidirectional marks and overrides, zero-width
// spaces and joiners, the byte-order mark) make an address read differently from what it is, and no
// mailbox has them. Subject and message keep them: they are the visitor's text, stored verbatim.
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

const tooLong = (field: keyof typeof LIMITS, value: string): FormMessage | null =>
  length(value) > LIMITS[field] ? { code: 'tooLong', field, max: LIMITS[field] } : null;

function checkEmail(email: string): FormMessage | null {
  const long = tooLong('email', email);
  if (long) return long;
  if (INVISIBLE.test(email)) return { code: 'invisibleEmail' };
  const local = email.slice(0, email.lastIndexOf('@'));
  return EMAIL.test(email) && length(local) <= LOCAL_MAX && !EMPTY_LABEL.test(email.slice(local.length)) ? null : { code: 'invalidEmail' };
}

/** An address mail can go to and from as it is: the same rules as the forms' (no line breaks or controls, which would inject headers). */
export const isEmailAddress = (value: string): boolean => checkEmail(value) === null;

export function validateSupportRequest(source: FieldSource): Validated<SupportRequest> {
  const email = field(source, 'email');
  const subject = field(source, 'subject');
  const message = field(source, 'message');
  const type = field(source, 'type');
  if (!email || !subject || !message || !type) return { ok: false, message: { code: 'empty' } };
  if (!isRequestType(type)) return { ok: false, message: { code: 'invalidType' } };
  if (hasNul(email, subject, message)) return { ok: false, message: { code: 'unsupported' } };
  const problem = checkEmail(email) ?? tooLong('subject', subject) ?? tooLong('message', message);
  if (problem) return { ok: false, message: problem };
  return { ok: true, value: { email, subject, message, type } };
}

export type Subscriber = { email: string };

export function validateSubscriber(source: FieldSource): Validated<Subscriber> {
  const email = field(source, 'email');
  if (!email) return { ok: false, message: { code: 'invalidEmail' } };
  const problem = checkEmail(email);
  return problem ? { ok: false, message: problem } : { ok: true, value: { email } };
}

/** An email link's token as the database makes them (32 random bytes, base64url): anything else is refused unasked. */
export const isToken = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

/** Bots fill every input; people never see this one. */
export const HONEYPOT_FIELD = 'website';

/** The hidden field with the page's language (a BCP 47 tag): formLanguage says what is kept of it. */
export const LANGUAGE_FIELD = 'language';

/**
 * The language a form's request or sign-up is stored in, and its answer written in: the page's tag while
 * the site serves that language, else '' for the default language, the same for none, anything but a
 * tag, the default's own tag and a tag the site does not serve. Never a reason to refuse the form. On the
 * server, as it last read the settings (servedLanguage); the browser has nothing to check it against.
 */
export const formLanguage = (source: FieldSource): string => servedLanguage(field(source, LANGUAGE_FIELD));

export const isBot = (source: FieldSource): boolean => field(source, HONEYPOT_FIELD) !== '';

/** The browser's key for one opened form (request-dialog.tsx); the database stores a repeat of it once. */
export const SUBMISSION_KEY_FIELD = 'submission_key';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form's key, or null without one (no JavaScript) or with anything but a UUID, which is then ignored, not refused. */
export function submissionKey(source: FieldSource): string | null {
  const key = field(source, SUBMISSION_KEY_FIELD);
  return UUID.test(key) ? key.toLowerCase() : null;
}
