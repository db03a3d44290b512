'use client';

import { useActionState } from 'react';

import { subscribe } from '@/lib/support/actions';
import type { LandingPageView, SettingsView } from '@/lib/content/views';
import { IDLE, type FormState, type SubscribeFields } from '@/lib/forms/form-state';
import { messageText } from '@/lib/forms/messages';
import { HONEYPOT_FIELD, LANGUAGE_FIELD } from '@/lib/forms/validation';

/**
 * The sign-up section's labels and answers (Landing page), the messages it may show (Site settings), and
 * the page it is on, in its language: the subscriber's emails are written in it.
 */
export type SubscribeFormProps = {
  copy: LandingPageView['stayUpdated'];
  messages: SettingsView['messages'];
  page: { language: string; path: string };
};

export function SubscribeForm({ copy, messages, page }: SubscribeFormProps) {
  const [state, formAction, pending] = useActionState<FormState<SubscribeFields>, FormData>(subscribe, IDLE, `${page.path}#stay-updated`);
  // With the language of its words: the editor's answer (Landing page) or a form message (Site settings).
  const message = pending
    ? null
    : state.status === 'success'
      ? { text: copy.successMessage, lang: copy.langOf.successMessage }
      : state.status === 'error'
        ? { text: messageText(messages, state.message), lang: messages.lang }
        : null;

  return (
    <form action={formAction} className="mx-auto mt-8 max-w-md">
      <div className="flex flex-col gap-3 sm:flex-row">
        <label {...copy.langOf.emailLabel} htmlFor="subscribe-email" className="sr-only">
          {copy.emailLabel}
        </label>
        <input
          {...copy.langOf.placeholder}
          id="subscribe-email"
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder={copy.placeholder}
          defaultValue={state.status === 'error' ? state.fields.email : ''}
          className="min-w-0 flex-1 rounded-lg border-0 bg-white px-4 py-3 text-ink shadow-sm outline-1 outline-white/40 placeholder:text-gray-500 focus:outline-2 focus:outline-white"
        />
        <input type="hidden" name={LANGUAGE_FIELD} value={page.language} />
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" aria-hidden="true" className="hidden" defaultValue="" />
        <button
          {...(pending ? copy.langOf.pendingLabel : copy.langOf.buttonLabel)}
          type="submit"
          disabled={pending}
          className="rounded-lg bg-white px-6 py-3 font-semibold text-brand-700 shadow-sm hover:bg-brand-50 disabled:opacity-70"
        >
          {pending ? copy.pendingLabel : copy.buttonLabel}
        </button>
      </div>
      <p role="status" aria-live="polite" className="mt-3 min-h-6 text-sm font-medium text-white">
        {message ? <span {...message.lang}>{message.text}</span> : null}
      </p>
    </form>
  );
}
