/** What a form action answers; typed so the client renders every state the spec lists. */
export type FormState<Fields> =
  | { status: 'idle' }
  | { status: 'success' }
  // The typed values come back so a failed submit never loses them, with or without JavaScript.
  | { status: 'error'; message: string; fields: Fields };

export type RequestFields = { email: string; subject: string; message: string };
export type SubscribeFields = { email: string };

export const IDLE = { status: 'idle' } as const;

const text = (formData: FormData, name: string): string => {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
};

/** What the visitor typed into the request form, as it is handed back with an error. */
export const requestFields = (formData: FormData): RequestFields => ({
  email: text(formData, 'email'),
  subject: text(formData, 'subject'),
  message: text(formData, 'message'),
});

export const subscribeFields = (formData: FormData): SubscribeFields => ({ email: text(formData, 'email') });

export const GENERIC_FAILURE = 'Failed to submit request. Please try again.';
export const REQUEST_SENT = 'Thanks! Your request has been sent.';
export const RATE_LIMITED = 'Too many requests from your address. Please wait a few minutes and try again.';
export const SITE_BUSY = 'Too many requests right now. Please try again in a few minutes.';
export const UNREADABLE = 'Your request could not be read. Please try again.';
