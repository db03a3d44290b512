import type { FormMessage } from './messages';

/** What a form action answers; typed so the client renders every state the spec lists. */
export type FormState<Fields> =
  | { status: 'idle' }
  | { status: 'success' }
  // The typed values come back so a failed submit never loses them, with or without JavaScript.
  // The message is a code: the form words it with the dataset's text.
  | { status: 'error'; message: FormMessage; fields: Fields };

/**
 * What following a link of the emails comes to (lib/store/subscriptions.ts), each a page of its own
 * (app/(site)/subscription/[result]) in the editor's words. `failed`: the store failed; the link still works.
 */
export const LINK_RESULTS = ['confirmed', 'unsubscribed', 'used', 'expired', 'invalid', 'failed'] as const;
export type LinkResult = (typeof LINK_RESULTS)[number];
export const isLinkResult = (value: string): value is LinkResult => (LINK_RESULTS as readonly string[]).includes(value);

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
