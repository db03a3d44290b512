import type { SubscriptionCopyKey } from '@/lib/forms/subscription-copy';

import { copyField, copyGroup } from '../fields';

type Field = { title: string; description?: string; max: number; multiline?: boolean; tokens?: readonly string[] };

const PRODUCT = ['productName'] as const;
const NOTICE = ['productName', 'date'] as const;

/** Each text of the group, as the Studio shows it; every key of lib/forms/subscription-copy.ts needs one. */
const FIELDS: Record<SubscriptionCopyKey, Field> = {
  confirmSubject: { title: 'Confirmation email: subject', max: 120, tokens: PRODUCT },
  confirmText: { title: 'Confirmation email: text', max: 400, multiline: true, tokens: PRODUCT },
  confirmLink: { title: 'Confirmation email: link, and the button on its page', max: 60 },
  confirmIgnore: {
    title: 'Confirmation email: for someone who did not sign up',
    description: 'Unconfirmed addresses are forgotten after 7 days.',
    max: 300,
    multiline: true,
    tokens: PRODUCT,
  },
  noticeSubject: {
    title: 'Policy notice email: subject',
    description: '{date} becomes the day the new version takes effect, e.g. "January 1, 2027".',
    max: 120,
    tokens: NOTICE,
  },
  noticeText: { title: 'Policy notice email: text', max: 400, multiline: true, tokens: NOTICE },
  noticeSummaryLabel: { title: 'Policy notice email: label before the summary of changes', max: 60 },
  noticeVersionLink: { title: 'Policy notice email: link to the new version', max: 60 },
  noticeChangesLink: { title: 'Policy notice email: link to what changes', max: 60 },
  emailFooter: { title: 'Every email: why it was sent, before the unsubscribe link', max: 300, multiline: true, tokens: PRODUCT },
  unsubscribeLink: { title: 'Every email: unsubscribe link, and the button on its page', max: 60 },
  pendingLabel: { title: 'Either page: the button while it works', max: 40 },
  confirmHeading: { title: 'Confirmation page: heading', max: 80 },
  confirmIntro: { title: 'Confirmation page: text above the button', max: 300, multiline: true, tokens: PRODUCT },
  confirmedHeading: { title: 'Confirmation page, confirmed: heading', max: 80 },
  confirmedText: { title: 'Confirmation page, confirmed: text', max: 300, multiline: true, tokens: PRODUCT },
  unsubscribeHeading: { title: 'Unsubscribe page: heading', max: 80 },
  unsubscribeIntro: { title: 'Unsubscribe page: text above the button', max: 300, multiline: true, tokens: PRODUCT },
  unsubscribedHeading: { title: 'Unsubscribe page, unsubscribed: heading', max: 80 },
  unsubscribedText: { title: 'Unsubscribe page, unsubscribed: text', max: 300, multiline: true, tokens: PRODUCT },
  invalidHeading: { title: 'A link that is not valid (mistyped, unknown): heading', max: 80 },
  invalidText: { title: 'A link that is not valid: text', max: 300, multiline: true, tokens: PRODUCT },
  usedHeading: { title: 'A confirmation link used already, or after an unsubscribe: heading', max: 80 },
  usedText: { title: 'A confirmation link used already: text', max: 300, multiline: true, tokens: PRODUCT },
  expiredHeading: { title: 'A confirmation link older than 7 days: heading', max: 80 },
  expiredText: { title: 'A confirmation link older than 7 days: text', max: 300, multiline: true, tokens: PRODUCT },
  failedHeading: { title: 'A link that could not be followed just now (the store failed): heading', max: 80 },
  failedText: { title: 'A link that could not be followed just now: text', max: 300, multiline: true, tokens: PRODUCT },
};

/**
 * The words of the subscription: the confirmation and notice emails, and the pages their
 * links open. {productName} becomes the product name.
 */
export const subscriptionCopy = copyGroup(
  'subscription',
  'Subscription',
  'The emails to subscribers (confirmation, policy notices) and the confirmation and unsubscribe pages.',
  Object.entries(FIELDS).map(([name, { title, description, max, multiline, tokens }]) =>
    copyField(name, { title, description, max, multiline, tokens }),
  ),
);
