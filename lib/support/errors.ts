import { FAILED, type FormMessage } from './messages';
import { LIMITS } from './validation';

/**
 * A store failure as a message a visitor may read (a code, worded by the UI). `rejected`: the data
 * broke a rule (its own message); `unavailable`: anything else (the generic failure). Never carries
 * SQL, stack or backend detail: those go to the server log.
 */
export class StoreError extends Error {
  readonly kind: 'rejected' | 'unavailable';
  readonly code?: string;
  readonly visitorMessage: FormMessage;

  constructor(kind: 'rejected' | 'unavailable', visitorMessage: FormMessage, code?: string, options?: { cause?: unknown }) {
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
 * `new row for relation "t" violates check constraint "name"`.
 */
export type BackendError = { code?: string; message?: string; details?: string | null; constraint?: string };

const CHECK_VIOLATION = '23514';

function constraintOf(error: BackendError): string | undefined {
  // Only the message's own quoting counts: `details` quotes the visitor's data.
  return error.constraint ?? /violates check constraint "([^"]+)"/.exec(error.message ?? '')?.[1];
}

/** Turns whatever a backend failed with (a Postgres error, a PostgREST answer, a thrown TypeError) into a StoreError. */
export function toStoreError(error: unknown, context: string): StoreError {
  const backend: BackendError = typeof error === 'object' && error !== null ? (error as BackendError) : { message: String(error) };
  const code = typeof backend.code === 'string' && backend.code ? backend.code : undefined;
  const constraint = constraintOf(backend);
  const known = code === CHECK_VIOLATION && constraint ? CONSTRAINT_MESSAGES[constraint] : undefined;
  // The log keeps what identifies the failure; details (which can quote the visitor's data) stay out.
  console.error(`${context} failed`, { code, message: backend.message, constraint });
  return known
    ? new StoreError('rejected', known, code, { cause: error })
    : new StoreError('unavailable', FAILED, code, { cause: error });
}
