'use server';

import { TOKEN_PARAM } from '@/lib/public-pages';

import { StoreError } from './errors';
import type { LinkResult, LinkState } from './form-state';
import { FAILED } from './messages';
import { confirmSubscription, unsubscribe } from './subscriptions';

/**
 * The buttons of the pages the emails link to (app/(site)/subscription/): a link only shows its page,
 * and only the button, a POST from this site, changes anything, so a link scanner that opens every link
 * of an email confirms and unsubscribes nothing. They work without JavaScript (a plain form post).
 */

async function follow(formData: unknown, call: (token: string) => Promise<LinkResult>): Promise<LinkState> {
  // React decodes an action's arguments from the request, so a crafted call can pass anything as the form.
  const token = formData instanceof FormData ? formData.get(TOKEN_PARAM) : null;
  try {
    return { status: 'done', result: typeof token === 'string' ? await call(token) : 'invalid' };
  } catch (error) {
    if (!(error instanceof StoreError)) console.error('subscription link failed unexpectedly', error);
    return { status: 'error', message: error instanceof StoreError ? error.visitorMessage : FAILED };
  }
}

export async function confirmFromLink(_previous: LinkState, formData: FormData): Promise<LinkState> {
  return follow(formData, confirmSubscription);
}

export async function unsubscribeFromLink(_previous: LinkState, formData: FormData): Promise<LinkState> {
  return follow(formData, unsubscribe);
}
