'use server';

import { redirect } from 'next/navigation';

import { linkResultPath, TOKEN_PARAM } from '@/lib/shared/public-pages';

import { StoreError } from '@/lib/store/errors';
import type { LinkResult } from '@/lib/forms/form-state';
import { confirmSubscription, unsubscribe } from '@/lib/store/subscriptions';

/**
 * The buttons of the pages the emails link to (app/(site)/subscription/): a link only shows its page,
 * and only the button, a POST from this site, changes anything, so a link scanner that opens every link
 * of an email confirms and unsubscribes nothing. The answer is a page of its own, redirected to (post,
 * redirect, get), with or without JavaScript.
 */

async function follow(formData: unknown, call: (token: string) => Promise<LinkResult>): Promise<never> {
  // React decodes an action's arguments from the request, so a crafted call can pass anything as the form.
  const token = formData instanceof FormData ? formData.get(TOKEN_PARAM) : null;
  let result: LinkResult;
  try {
    result = typeof token === 'string' ? await call(token) : 'invalid';
  } catch (error) {
    if (!(error instanceof StoreError)) console.error('subscription link failed unexpectedly', error);
    result = 'failed';
  }
  redirect(linkResultPath(result));
}

export async function confirmFromLink(formData: FormData): Promise<never> {
  return follow(formData, confirmSubscription);
}

export async function unsubscribeFromLink(formData: FormData): Promise<never> {
  return follow(formData, unsubscribe);
}
