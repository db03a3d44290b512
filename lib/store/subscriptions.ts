import 'server-only';

import { backend } from './backend';
import { toStoreError } from './errors';
import type { LinkResult } from '@/lib/forms/form-state';
import { isToken } from '@/lib/forms/validation';

/**
 * The two links of the emails, as the public key may follow them (supabase/migrations/*_double_opt_in.sql):
 * a token the database never made is 'invalid' without asking it. Rejects with a StoreError when the
 * store fails, so the visitor can try again.
 */

const CONFIRM_RESULTS = ['confirmed', 'used', 'expired', 'invalid'] as const;
const UNSUBSCRIBE_RESULTS = ['unsubscribed', 'invalid'] as const;

type ConfirmResult = (typeof CONFIRM_RESULTS)[number];
type UnsubscribeResult = (typeof UNSUBSCRIBE_RESULTS)[number];

async function follow<R extends LinkResult>(
  fn: 'confirm_subscription' | 'unsubscribe',
  token: string,
  results: readonly R[],
): Promise<R | 'invalid'> {
  if (!isToken(token)) return 'invalid';
  let answer: string | null;
  try {
    answer = await backend().call(fn, { token }, 'public');
  } catch (error) {
    throw toStoreError(error, fn);
  }
  const known = results.find((result) => result === answer);
  if (!known) throw toStoreError(new Error(`${fn} answered ${answer}`), fn);
  return known;
}

/** A pending address becomes confirmed; a link used or expired changes nothing, and says so. */
export const confirmSubscription = (token: string): Promise<ConfirmResult> => follow('confirm_subscription', token, CONFIRM_RESULTS);

/** The subscriber of this token gets no more email; a second time answers the same and changes nothing. */
export const unsubscribe = (token: string): Promise<UnsubscribeResult> => follow('unsubscribe', token, UNSUBSCRIBE_RESULTS);
