'use client';

import { useActionState, useEffect, useState } from 'react';

import { submitSupportRequest } from '@/lib/support/actions';
import { IDLE, requestFields, type FormState, type RequestFields } from '@/lib/forms/form-state';
import { FAILED } from '@/lib/forms/messages';
import { validateSupportRequest } from '@/lib/forms/validation';

type State = FormState<RequestFields>;

/** A random UUID; getRandomValues where randomUUID is missing (it needs a secure context, plain http is not one). */
function newSubmissionKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The action as the page's script runs it. The shared checks come first, so what the browser can tell
 * costs no round trip. A call that never gets an answer the page can read (the network drops it, a
 * proxy answers with a page) would throw into React and take the page, and what the visitor typed,
 * with it: it becomes the generic failure instead, with the text handed back.
 */
async function sendFromPage(_previous: State, formData: FormData): Promise<State> {
  const checked = validateSupportRequest(formData);
  if (!checked.ok) return { status: 'error', message: checked.message, fields: requestFields(formData) };
  try {
    // IDLE, not the previous state: the action ignores it, and it would carry the typed text twice.
    return await submitSupportRequest(IDLE, formData);
  } catch (error) {
    console.error('Support request got no answer', error);
    return { status: 'error', message: FAILED, fields: requestFields(formData) };
  }
}

/**
 * The request form's one state, from useActionState, with and without JavaScript. The prerendered HTML
 * names the server action itself, so without JavaScript the form posts to it and the page comes back
 * with its state (the permalink). Once the page's script runs (the submission key is minted), the same
 * hook runs `sendFromPage`. On every answer React resets the form to its default values, which hold
 * what the visitor typed after a failure and nothing after a success (the spec's reset).
 */
export function useRequestForm(dialogId: string, pagePath: string) {
  // One key per opened form, minted in the browser: /support is one prerendered page for everyone, so
  // a key in its HTML would merge different visitors. The card mounts a fresh dialog after every close,
  // and a success mints a new one, so only a repeat (double click, retry after a failure) shares a key.
  const [submissionKey, setSubmissionKey] = useState<string | null>(null);
  const [state, formAction, pending] = useActionState<State, FormData>(
    submissionKey ? sendFromPage : submitSupportRequest,
    IDLE,
    `${pagePath}#${dialogId}`,
  );
  // A value only the browser may have (minted during render it would be in the prerendered HTML too):
  // set after hydration, and again after a success, since what the form sends next is a new request.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- after hydration and after a success, on purpose
    if (state.status !== 'error') setSubmissionKey(newSubmissionKey());
  }, [state]);
  return { state, formAction, pending, submissionKey };
}
