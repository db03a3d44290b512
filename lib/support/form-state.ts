import type { FormMessage } from './messages';

/** What a form action answers; typed so the client renders every state the spec lists. */
export type FormState<Fields> =
  | { status: 'idle' }
  | { status: 'success' }
  // The typed values come back so a failed submit never loses them, with or without JavaScript.
  // The message is a code: the form words it with the dataset's text.
  | { status: 'error'; message: FormMessage; fields: Fields };

/**
 * What a link of the emails comes to (lib/support/subscriptions.ts): its page says which, in the
 * editor's words. `error`: the store failed; the button stays, to try again.
 */
export type LinkResult = 'confirmed' | 'used' | 'expired' | 'invalid' | 'unsubscribed';
export type LinkState = { status: 'idle' } | { status: 'done'; result: LinkResult } | { status: 'error'; message: FormMessage };

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
