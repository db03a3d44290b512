'use client';

import {
  useActionState,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  useTransition,
  type FormEvent,
  type Ref,
} from 'react';

import { ROUTES } from '@/lib/public-pages';
import { submitSupportRequest } from '@/lib/support/actions';
import type { SupportPageView } from '@/lib/content/views';
import { IDLE, requestFields, type FormState, type RequestFields } from '@/lib/support/form-state';
import { FAILED, messageText, type FormMessage, type MessageCopy } from '@/lib/support/messages';
import type { RequestType } from '@/lib/support/request-types';
import { HONEYPOT_FIELD, SUBMISSION_KEY_FIELD, validateSupportRequest } from '@/lib/support/validation';

/** How long "Sent!" stays before the dialog closes, per the spec. */
const CLOSE_AFTER_SUCCESS_MS = 2000;

type Props = {
  /** The dialog element, for the card that opens it. */
  ref: Ref<HTMLDialogElement>;
  dialogId: string;
  title: string;
  type: RequestType;
  /** The dialog closed, whichever way (Cancel, Escape, the timer after "Sent!"). */
  onClose: () => void;
  /** The form's labels (Support page) and the messages it may show (Site settings). */
  copy: RequestFormCopy;
};

export type RequestFormCopy = { form: SupportPageView['form']; messages: MessageCopy };

const INPUTS = [
  { name: 'email', label: 'emailLabel', type: 'email', autoComplete: 'email' },
  { name: 'subject', label: 'subjectLabel', type: 'text', autoComplete: 'off' },
] as const;

/** A random UUID; getRandomValues where randomUUID is missing (it needs a secure context, plain http is not one). */
function newSubmissionKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const inputClass =
  'mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 text-ink shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30';

/**
 * One request form in a native modal dialog: focus moves in on open and back
 * to the card on close, Escape closes. Without JavaScript the dialog opens as
 * the link target and the form posts to the same server action.
 */
/**
 * The action as the page's script calls it. A call that never gets an answer the page can read (the
 * network drops it, a proxy answers with a page) would throw into React and take the page, and what
 * the visitor typed, with it: it becomes the generic failure instead, with the text handed back.
 */
async function send(formData: FormData): Promise<FormState<RequestFields>> {
  try {
    return await submitSupportRequest(IDLE, formData);
  } catch (error) {
    console.error('Support request got no answer', error);
    return { status: 'error', message: FAILED, fields: requestFields(formData) };
  }
}

export function RequestDialog({ ref, dialogId, title, type, onClose, copy: { form: labels, messages } }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useImperativeHandle(ref, () => dialog.current!, []);
  const close = useCallback(() => dialog.current?.close(), []);
  // Without JavaScript the form posts to the action and the page comes back with its state (the permalink).
  const [postedState, formAction] = useActionState<FormState<RequestFields>, FormData>(
    submitSupportRequest,
    IDLE,
    `${ROUTES.support}#${dialogId}`,
  );
  // With JavaScript the page's script sends it (send) and keeps the answer here.
  const [sentState, setSentState] = useState<FormState<RequestFields> | null>(null);
  const [pending, startSending] = useTransition();
  const state = sentState ?? postedState;
  const [clientError, setClientError] = useState<FormMessage | null>(null);
  const ids = useId();
  const error = pending ? null : (clientError ?? (state.status === 'error' ? state.message : null));
  const sent = !pending && !clientError && state.status === 'success';
  const fields = state.status === 'error' ? state.fields : undefined;
  // One key per opened form, minted in the browser: /support is one prerendered page for everyone, so
  // a key in its HTML would merge different visitors. The card mounts a fresh dialog after every close,
  // and a success mints a new one, so only a repeat (double click, retry after a failure) shares a key.
  const [submissionKey, setSubmissionKey] = useState<string | null>(null);
  // A value only the browser may have: minted during render it would be in the prerendered HTML too.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- set once after hydration, on purpose
  useEffect(() => setSubmissionKey(newSubmissionKey()), []);

  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(close, CLOSE_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [sent, close]);

  useEffect(() => {
    if (error) console.error(`Support request failed: ${messageText(messages, error)}`);
  }, [error, state, messages]);

  function sendFromPage(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const formData = new FormData(form);
    const result = validateSupportRequest(formData);
    setClientError(result.ok ? null : result.message);
    if (!result.ok) return;
    startSending(async () => {
      const answer = await send(formData);
      // The spec: on success the form is reset (React does this itself only for a form action it dispatched).
      if (answer.status === 'success') form.reset();
      startSending(() => {
        setSentState(answer);
        // What this form sends next is a new request.
        if (answer.status === 'success') setSubmissionKey(newSubmissionKey());
      });
    });
  }

  const label = pending ? labels.sending : sent ? labels.sent : error ? labels.error : labels.send;

  return (
    <dialog
      ref={dialog}
      id={dialogId}
      aria-labelledby={`${ids}-title`}
      onClose={onClose}
      onCancel={(event) => pending && event.preventDefault()}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-ink shadow-xl"
    >
      <form action={formAction} onSubmit={sendFromPage} className="p-6 sm:p-8">
        <h2 id={`${ids}-title`} className="text-2xl font-bold">
          {title}
        </h2>
        <input type="hidden" name="type" value={type} />
        {submissionKey ? <input type="hidden" name={SUBMISSION_KEY_FIELD} value={submissionKey} /> : null}
        <div className="hidden" aria-hidden="true">
          <label>
            Leave this empty
            <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
          </label>
        </div>
        <div className="mt-6 space-y-4">
          {INPUTS.map(({ name, label, type, autoComplete }) => (
            <label key={name} className="block text-sm font-medium">
              {labels[label]}
              <input
                type={type}
                name={name}
                required
                autoComplete={autoComplete}
                defaultValue={fields?.[name] ?? ''}
                className={inputClass}
              />
            </label>
          ))}
          <label className="block text-sm font-medium">
            {labels.messageLabel}
            <textarea name="message" required rows={5} defaultValue={fields?.message ?? ''} className={inputClass} />
          </label>
        </div>
        <p role="status" aria-live="polite" className="mt-4 min-h-6 text-sm">
          {error ? <span className="font-medium text-red-700">{messageText(messages, error)}</span> : null}
          {sent ? <span className="font-medium text-green-800">{labels.success}</span> : null}
        </p>
        <div className="mt-4 flex justify-end gap-3">
          <button
            type="button"
            onClick={close}
            disabled={pending}
            className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {labels.cancel}
          </button>
          <button
            type="submit"
            disabled={pending}
            className="rounded-lg bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-70"
          >
            {label}
          </button>
        </div>
      </form>
    </dialog>
  );
}
