/**
 * The emails' words as the committed seed's Site settings have them, standing in for lib/mail/copy.ts in
 * the sender's tests, which run no content lake: `vi.mock('./copy', () => import('@/testkit/seed-mail-copy'))`.
 * Each of the seed's languages has its words, and each is written left to right.
 */
import type { MailCopy } from '../lib/content/mail-copy-cache.ts';
import { toSubscriptionCopy } from '../lib/forms/subscription-copy.ts';
import { servedLanguage } from '../lib/shared/language-gate.ts';
import { toSiteLanguages } from '../lib/shared/languages.ts';
import { SEED } from './seed-copy.ts';

export async function mailCopy(language = ''): Promise<MailCopy> {
  const defaultLanguage = toSiteLanguages(SEED.settings).defaultLanguage;
  return {
    language: servedLanguage(language),
    writtenIn: { tag: servedLanguage(language) || defaultLanguage, direction: 'ltr' },
    recordIn: { tag: defaultLanguage, direction: 'ltr' },
    productName: SEED.settings.productName!,
    words: toSubscriptionCopy({ productName: SEED.settings.productName!, subscription: SEED.settings.subscription! }),
  };
}
