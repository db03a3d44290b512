import type { SubscriptionCopy } from '@/lib/forms/subscription-copy';
import { mayServeLanguage } from '@/lib/shared/language-gate';
import type { Language } from '@/lib/shared/languages';

/**
 * The emails' words as the senders keep them (lib/mail/copy.ts), apart from how they are read, so that
 * a publish (lib/content/revalidate.ts) can drop them without importing the content client they are
 * read with. One per process: the senders and the publish paths run in different bundles.
 */

/**
 * What the senders read from Site settings for every email in one language: `language` is the tag whose
 * pages its links open, '' for the default language (language-gate.ts servedLanguage); `writtenIn`, that
 * language as the email names it (Content-Language, <html lang>: the default's own tag for '') and the
 * direction it is laid out in; `recordIn`, the default language's, which the record's summaries are in.
 */
export type MailCopy = {
  language: string;
  writtenIn: Pick<Language, 'tag' | 'direction'>;
  recordIn: Pick<Language, 'tag' | 'direction'>;
  productName: string;
  words: SubscriptionCopy;
};

type Cache = { until: number; copy: Promise<MailCopy> };

const globalCopy = globalThis as typeof globalThis & { mailCopyCache?: Map<string, Cache> };

const caches = () => (globalCopy.mailCopyCache ??= new Map<string, Cache>());

/**
 * `language`'s words if kept. Each look first drops the words of every language no longer served, so
 * the senders keep an entry per served language at most.
 */
export function cachedMailCopy(language: string): Cache | undefined {
  const kept = caches();
  for (const tag of kept.keys()) if (tag !== '' && !mayServeLanguage(tag)) kept.delete(tag);
  return kept.get(language);
}

export function keepMailCopy(language: string, cache: Cache): void {
  caches().set(language, cache);
}

/** Site settings were published: the next email reads the words again (of `language` alone, when named). */
export function forgetMailCopy(language?: string): void {
  if (language === undefined) caches().clear();
  else caches().delete(language);
}
