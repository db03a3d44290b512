import type { LinkResult } from './form-state';
import type { SUBSCRIPTION_COPY_QUERY_RESULT } from '@/sanity.types';

import { fillTokens } from '@/lib/shared/tokens';
import { texts } from '@/lib/shared/view-fields';

/**
 * The words of the subscription: its emails and the pages their links open, from Site
 * settings → Subscription (schemas/singletons/subscription-copy.ts names each field from this list).
 */
export const SUBSCRIPTION_COPY_KEYS = [
  'confirmSubject',
  'confirmText',
  'confirmLink',
  'confirmIgnore',
  'noticeSubject',
  'noticeText',
  'noticeSummaryLabel',
  'noticeVersionLink',
  'noticeChangesLink',
  'emailFooter',
  'unsubscribeLink',
  'pendingLabel',
  'confirmHeading',
  'confirmIntro',
  'confirmedHeading',
  'confirmedText',
  'unsubscribeHeading',
  'unsubscribeIntro',
  'unsubscribedHeading',
  'unsubscribedText',
  'invalidHeading',
  'invalidText',
  'usedHeading',
  'usedText',
  'expiredHeading',
  'expiredText',
  'failedHeading',
  'failedText',
] as const;

export type SubscriptionCopyKey = (typeof SUBSCRIPTION_COPY_KEYS)[number];
export type SubscriptionCopy = Record<SubscriptionCopyKey, string>;

/** Every text with {productName} filled in; {date} stays for the notice to fill. */
export function toSubscriptionCopy(
  result: Pick<NonNullable<SUBSCRIPTION_COPY_QUERY_RESULT>, 'productName' | 'subscription'> | null,
): SubscriptionCopy {
  return texts(fillTokens(result?.subscription, { productName: result?.productName }), SUBSCRIPTION_COPY_KEYS);
}

/** The words of each page an email's link opens (app/(site)/subscription/), before its button is pressed. */
export const LINK_PAGE_WORDS = {
  confirm: { heading: 'confirmHeading', intro: 'confirmIntro', button: 'confirmLink' },
  unsubscribe: { heading: 'unsubscribeHeading', intro: 'unsubscribeIntro', button: 'unsubscribeLink' },
} as const satisfies Record<string, Record<string, SubscriptionCopyKey>>;

export type LinkKind = keyof typeof LINK_PAGE_WORDS;

/** The heading and text of each answer a link's page gives. */
export const LINK_RESULT_WORDS: Record<LinkResult, readonly [SubscriptionCopyKey, SubscriptionCopyKey]> = {
  confirmed: ['confirmedHeading', 'confirmedText'],
  unsubscribed: ['unsubscribedHeading', 'unsubscribedText'],
  used: ['usedHeading', 'usedText'],
  expired: ['expiredHeading', 'expiredText'],
  invalid: ['invalidHeading', 'invalidText'],
  failed: ['failedHeading', 'failedText'],
};
