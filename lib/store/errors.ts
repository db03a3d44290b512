import { FAILED, type FormMessage } from '@/lib/forms/messages';
import { LIMITS } from '@/lib/forms/validation';

/**
 * A store failure as a message a visitor may read (a code, worded by the UI). `rejected`: the data
 * broke a rule (its own message); `limited`: the database's quota refused it, nothing was stored (the
 * "too many requests" messages the in-process limiter gives too); `unavailable`: anything else (the
 * generic failure). Never carries SQL, stack or backend detail: those go to the server log.
 */
export type StoreErrorKind = 'rejected' | 'limited' | 'unavailable';

export class StoreError extends Error {
  readonly kind: StoreErrorKind;
  readonly code?: string;
  readonly visitorMessage: FormMessage;

  constructor(kind: StoreErrorKind, visitorMessage: FormMessage, code?: string, options?: { cause?: unknown }) {
    super(`${kind}: ${visitorMessage.code}`, options);
    this.name = 'StoreError';
    this.kind = kind;
    this.code = code;
    this.visitorMessage = visitorMessage;
  }
}

const tooLong = (field: keyof typeof LIMITS): FormMessage => ({ code: 'tooLong', field, max: LIMITS[field] });

/** Named CHECK constraints of supabase/migrations, and what they mean to a person. */
const CONSTRAINT_MESSAGES: Record<string, FormMessage> = {
  support_requests_type_check: { code: 'invalidType' },
  support_requests_email_length: tooLong('email'),
  support_requests_subject_length: tooLong('subject'),
  support_requests_message_length: tooLong('message'),
  support_requests_email_not_blank: { code: 'blank', field: 'email' },
  support_requests_subject_not_blank: { code: 'blank', field: 'subject' },
  support_requests_message_not_blank: { code: 'blank', field: 'message' },
  newsletter_subscribers_email_length: tooLong('email'),
  newsletter_subscribers_email_not_blank: { code: 'blank', field: 'email' },
};

/**
 * The parts of a Postgres (PGlite) or PostgREST error that matter here. PGlite
 * names the constraint in `constraint`; PostgREST only in `message`, as
 * `new row for relation "t" violates check constraint "name"`. `status`: the HTTP
 * status of a PostgREST answer (the store adds it).
 */
export type BackendError = { code?: string; message?: string; details?: string | null; constraint?: string; status?: number };

const CHECK_VIOLATION = '23514';
/** What supabase/migrations/*_quotas.sql raises past a limit; PostgREST answers it with HTTP 429. */
const QUOTA_EXCEEDED = 'PT429';
const TOO_MANY_REQUESTS = 429;

/**
 * A quota's refusal as the visitor's message: the client's own quota, or the site's ceiling (the
 * message names which). A 429 without the database's code came from something in front of PostgREST
 * (the platform's own rate limit): like the ceiling, nothing the visitor did, so the site-wide words.
 */
function quotaMessage(error: BackendError, code: string | undefined): FormMessage | undefined {
  if (code === QUOTA_EXCEEDED) return /client quota/.test(error.message ?? '') ? { code: 'rateLimited' } : { code: 'siteBusy' };
  if (error.status === TOO_MANY_REQUESTS) return { code: 'siteBusy' };
  return undefined;
}

function constraintOf(error: BackendError): string | undefined {
  // Only the message's own quoting counts: `details` quotes the visitor's data.
  return error.constraint ?? /violates check constraint "([^"]+)"/.exec(error.message ?? '')?.[1];
}

/** Turns whatever a backend failed with (a Postgres error, a PostgREST answer, a thrown TypeError) into a StoreError. */
export function toStoreError(error: unknown, context: string): StoreError {
  const backend: BackendError = typeof error === 'object' && error !== null ? error : { message: String(error) };
  const code = typeof backend.code === 'string' && backend.code ? backend.code : undefined;
  const limited = quotaMessage(backend, code);
  if (limited) {
    // Expected under a flood: one line, not an error with a stack.
    console.warn(`${context} refused by a quota`, { code, message: backend.message });
    return new StoreError('limited', limited, code, { cause: error });
  }
  const constraint = constraintOf(backend);
  const known = code === CHECK_VIOLATION && constraint ? CONSTRAINT_MESSAGES[constraint] : undefined;
  // The log keeps what identifies the failure; details (which can quote the visitor's data) stay out.
  console.error(`${context} failed`, { code, message: backend.message, constraint });
  return known ? new StoreError('rejected', known, code, { cause: error }) : new StoreError('unavailable', FAILED, code, { cause: error });
}
