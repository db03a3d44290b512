'use client';

import { useCallback, useEffect, useId, useImperativeHandle, useRef, type Ref } from 'react';

import type { SettingsView, SupportPageView } from '@/lib/content/views';
import type { RequestFields } from '@/lib/forms/form-state';
import { messageText, type FormMessage } from '@/lib/forms/messages';
import type { LangAttrs } from '@/lib/shared/text-language';
import type { RequestType } from '@/lib/forms/request-types';
import { HONEYPOT_FIELD, LANGUAGE_FIELD, SUBMISSION_KEY_FIELD } from '@/lib/forms/validation';

import { useRequestForm } from './use-request-form';

/** How long "Sent!" stays before the dialog closes, per the spec. */
const CLOSE_AFTER_SUCCESS_MS = 2000;

type Props = {
  /** The dialog element, for the card that opens it. */
  ref: Ref<HTMLDialogElement>;
  dialogId: string;
  title: string;
  /** The title's language where it is the default's on a page in another (its card's). */
  titleLang?: LangAttrs;
  type: RequestType;
  /** The form's labels (Support page) and the messages it may show (Site settings). */
  copy: RequestFormCopy;
};

/** `page`: the support page the form is on, in its language (the request records the language). */
export type RequestFormCopy = {
  form: SupportPageView['form'];
  messages: SettingsView['messages'];
  page: { language: string; path: string };
};
type Labels = RequestFormCopy['form'];
type Messages = RequestFormCopy['messages'];

const INPUTS = [
  { name: 'email', label: 'emailLabel', type: 'email', autoComplete: 'email' },
  { name: 'subject', label: 'subjectLabel', type: 'text', autoComplete: 'off' },
] as const;

const inputClass =
  'mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 text-ink shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30';

/**
 * One request form in a native modal dialog: focus moves in on open and back to the card on close,
 * Escape closes (not while sending). Without JavaScript the dialog opens as the link target and the
 * form posts to the same server action (use-request-form.ts).
 */
export function RequestDialog({ ref, dialogId, title, titleLang, type, copy: { form: labels, messages, page } }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useImperativeHandle(ref, () => dialog.current!, []);
  const close = useCallback(() => dialog.current?.close(), []);
  const { state, formAction, pending, submissionKey } = useRequestForm(dialogId, page.path);
  const ids = useId();
  const error = !pending && state.status === 'error' ? state.message : null;
  const sent = !pending && state.status === 'success';
  const submitLabel = pending ? 'sending' : sent ? 'sent' : error ? 'error' : 'send';

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(close, CLOSE_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [sent, close]);

  useEffect(() => {
    if (error) console.error(`Support request failed: ${messageText(messages, error)}`);
  }, [error, state, messages]);

  return (
    <dialog
      ref={dialog}
      id={dialogId}
      aria-labelledby={`${ids}-title`}
      onCancel={(event) => pending && event.preventDefault()}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-ink shadow-xl"
    >
      <form action={formAction} className="p-6 sm:p-8">
        <h2 {...titleLang} id={`${ids}-title`} className="text-2xl font-bold">
          {title}
        </h2>
        <input type="hidden" name="type" value={type} />
        <input type="hidden" name={LANGUAGE_FIELD} value={page.language} />
        {submissionKey ? <input type="hidden" name={SUBMISSION_KEY_FIELD} value={submissionKey} /> : null}
        <FormFields labels={labels} typed={state.status === 'error' ? state.fields : undefined} />
        <FormStatus error={error} sent={sent} labels={labels} messages={messages} />
        <div className="mt-4 flex justify-end gap-3">
          <button
            {...labels.langOf.cancel}
            type="button"
            onClick={close}
            disabled={pending}
            className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {labels.cancel}
          </button>
          <button
            {...labels.langOf[submitLabel]}
            type="submit"
            disabled={pending}
            className="rounded-lg bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-70"
          >
            {labels[submitLabel]}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** What came of the last submission, each answer in the language of its words. */
function FormStatus({ error, sent, labels, messages }: { error: FormMessage | null; sent: boolean; labels: Labels; messages: Messages }) {
  return (
    <p role="status" aria-live="polite" className="mt-4 min-h-6 text-sm">
      {error ? (
        <span {...messages.lang} className="font-medium text-red-700">
          {messageText(messages, error)}
        </span>
      ) : null}
      {sent ? (
        <span {...labels.langOf.success} className="font-medium text-green-800">
          {labels.success}
        </span>
      ) : null}
    </p>
  );
}

/** The honeypot and the visitor's fields; `typed` is what a failed submission hands back, kept in the fields. */
function FormFields({ labels, typed }: { labels: Labels; typed: RequestFields | undefined }) {
  return (
    <>
      <div className="hidden" aria-hidden="true">
        <label>
          Leave this empty
          <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      <div className="mt-6 flex flex-col gap-4">
        {INPUTS.map(({ name, label, type, autoComplete }) => (
          <label key={name} className="block text-sm font-medium">
            {/* Its own element: a language on the label would be the typed text's too. */}
            <span {...labels.langOf[label]}>{labels[label]}</span>
            <input type={type} name={name} required autoComplete={autoComplete} defaultValue={typed?.[name] ?? ''} className={inputClass} />
          </label>
        ))}
        <label className="block text-sm font-medium">
          <span {...labels.langOf.messageLabel}>{labels.messageLabel}</span>
          <textarea name="message" required rows={5} defaultValue={typed?.message ?? ''} className={inputClass} />
        </label>
      </div>
    </>
  );
}
