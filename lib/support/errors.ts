import { GENERIC_FAILURE } from './form-state';
import { LIMITS, MESSAGES } from './validation';

/**
 * A store failure in words a visitor may read. `rejected`: the data broke a
 * rule (shown as is); `unavailable`: anything else (the generic message).
 * Never carries SQL, stack or backend detail: those go to the server log.
 */
export class StoreError extends Error {
  constructor(
    readonly kind: 'rejected' | 'unavailable',
    message: string,
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** Named CHECK constraints of supabase/migrations, and what they mean to a person. */
const CONSTRAINT_MESSAGES: Record<string, string> = {
  support_requests_type_check: MESSAGES.type,
  support_requests_email_length: MESSAGES.tooLong('Email', LIMITS.email),
  support_requests_subject_length: MESSAGES.tooLong('Subject', LIMITS.subject),
  support_requests_message_length: MESSAGES.tooLong('Message', LIMITS.message),
  support_requests_email_not_blank: MESSAGES.empty,
  support_requests_subject_not_blank: MESSAGES.empty,
  support_requests_message_not_blank: MESSAGES.empty,
  newsletter_subscribers_email_length: MESSAGES.tooLong('Email', LIMITS.email),
  newsletter_subscribers_email_not_blank: MESSAGES.email,
};

/** The parts of a Postgres (PGlite) or PostgREST error that matter here. */
export type BackendError = { code?: string; message?: string; details?: string | null; constraint?: string };

const CHECK_VIOLATION = '23514';

export function toStoreError(error: BackendError | null | undefined, context: string): StoreError {
  const code = error?.code;
  const text = [error?.constraint, error?.message, error?.details].filter(Boolean).join(' ');
  const constraint = Object.keys(CONSTRAINT_MESSAGES).find((name) => text.includes(name));
  const known = code === CHECK_VIOLATION && constraint ? CONSTRAINT_MESSAGES[constraint] : undefined;
  // Backend details can quote the visitor's data; the log keeps what identifies the failure.
  console.error(`${context} failed`, { code, message: error?.message, constraint });
  return known
    ? new StoreError('rejected', known, code, { cause: error })
    : new StoreError('unavailable', GENERIC_FAILURE, code, { cause: error });
}
