import type { SubscriptionCopy } from '@/lib/forms/subscription-copy';

/**
 * The emails' words as the senders keep them (lib/mail/copy.ts), apart from how they are read, so that
 * a publish (lib/content/revalidate.ts) can drop them without importing the content client they are
 * read with. One per process: the senders and the publish paths run in different bundles.
 */

/** What the senders read from Site settings for every email. */
export type MailCopy = { productName: string; words: SubscriptionCopy };

type Cache = { until: number; copy: Promise<MailCopy> };

const globalCopy = globalThis as typeof globalThis & { mailCopyCache?: Cache };

export const cachedMailCopy = (): Cache | undefined => globalCopy.mailCopyCache;

export function keepMailCopy(cache: Cache): void {
  globalCopy.mailCopyCache = cache;
}

/** Site settings were published: the next email reads the words again. */
export function forgetMailCopy(): void {
  globalCopy.mailCopyCache = undefined;
}
