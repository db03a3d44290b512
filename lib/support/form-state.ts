/** What a form action answers; typed so the client renders every state the spec lists. */
export type FormState<Fields> =
  | { status: 'idle' }
  | { status: 'success' }
  // The typed values come back so a failed submit never loses them, with or without JavaScript.
  | { status: 'error'; message: string; fields: Fields };

export type RequestFields = { email: string; subject: string; message: string };
export type SubscribeFields = { email: string };

export const IDLE = { status: 'idle' } as const;

export const GENERIC_FAILURE = 'Failed to submit request. Please try again.';
export const REQUEST_SENT = 'Thanks! Your request has been sent.';
export const RATE_LIMITED = 'Too many requests from your address. Please wait a few minutes and try again.';
export const SITE_BUSY = 'Too many requests right now. Please try again in a few minutes.';
export const UNREADABLE = 'Your request could not be read. Please try again.';
