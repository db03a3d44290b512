'use server';

import { redirect } from 'next/navigation';

import { linkResultPath, TOKEN_PARAM } from '@/lib/shared/public-pages';
import { servedPath } from '@/lib/shared/language-gate';

import { StoreError } from '@/lib/store/errors';
import type { LinkResult } from '@/lib/forms/form-state';
import { confirmSubscription, unsubscribe } from '@/lib/store/subscriptions';
import { formLanguage } from '@/lib/forms/validation';

/**
 * The buttons of the pages the emails link to (app/(site)/[lang]/subscription/): a link only shows its page,
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
  // In the language of the page the button was on; the default language's for a tag the site does not serve.
  redirect(servedPath(formData instanceof FormData ? formLanguage(formData) : '', linkResultPath(result)));
}

export async function confirmFromLink(formData: FormData): Promise<never> {
  return follow(formData, confirmSubscription);
}

export async function unsubscribeFromLink(formData: FormData): Promise<never> {
  return follow(formData, unsubscribe);
}
