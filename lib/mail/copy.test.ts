import { beforeEach, describe, expect, it, vi } from 'vitest';

import { serveLanguages } from '@/lib/shared/language-gate';
import { cachedMailCopy, forgetMailCopy } from '@/lib/content/mail-copy-cache';
import { SEED } from '@/testkit/seed-copy';

import { COPY_TTL_MS, mailCopy } from './copy';

/** The emails' words per language, as the senders read and keep them: Sanity stands in as a function. */
const reads = vi.hoisted(() => [] as string[]);
vi.mock('@/lib/content/client', () => ({
  createSanityClient: () => ({
    fetch: async (query: string, params: { language?: string }) => {
      // The languages' query (it asks for the default) and the words' (it asks for $language).
      if (!query.includes('$language')) return SETTINGS_LANGUAGES;
      reads.push(params.language!);
      // A language listed before its words are translated: the query fills them in from the default's.
      const fallback = params.language === UNTRANSLATED ? ['subscription'] : [];
      return { productName: SEED.settings.productName, subscription: SEED.settings.subscription, fallback };
    },
  }),
}));

const UNTRANSLATED = 'he';

const SETTINGS_LANGUAGES = {
  languages: [
    { tag: 'en', name: 'English', direction: 'ltr' },
    { tag: 'es', name: 'Español', direction: 'ltr' },
    { tag: 'ar', name: 'العربية', direction: 'rtl' },
    { tag: UNTRANSLATED, name: 'עברית', direction: 'rtl' },
  ],
  defaultLanguage: 'en',
  governingLanguage: 'en',
};

beforeEach(() => {
  reads.splice(0);
  forgetMailCopy();
});

describe('mailCopy', () => {
  it('reads the words in the subscriber’s language, once per language within the TTL', async () => {
    const now = 1_000;
    expect(await mailCopy('', now)).toMatchObject({ language: '' });
    expect(await mailCopy('es', now)).toMatchObject({ language: 'es' });
    await mailCopy('es', now + COPY_TTL_MS - 1);
    await mailCopy('', now + 1);
    expect(reads).toEqual(['', 'es']);
    await mailCopy('es', now + COPY_TTL_MS);
    expect(reads).toEqual(['', 'es', 'es']);
  });

  it('a language the site does not serve, or the default’s own tag, gets the default language’s words', async () => {
    await mailCopy('');
    for (const language of ['en', 'fr', 'de-CH']) expect(await mailCopy(language), language).toMatchObject({ language: '' });
    expect(reads).toEqual(['']);
  });

  it('keeps no words of a language once it is no longer served: one entry per served language at most', async () => {
    await mailCopy('');
    await mailCopy('es');
    expect(cachedMailCopy('es')).toBeDefined();
    serveLanguages({ languages: [{ tag: 'en', name: 'English', direction: 'ltr' }], defaultLanguage: 'en', governingLanguage: 'en' });
    expect(await mailCopy('es')).toMatchObject({ language: '' });
    expect(cachedMailCopy('es')).toBeUndefined();
  });

  it('names its language and its direction as Site settings list them: the default’s own tag for the default language', async () => {
    expect((await mailCopy('')).writtenIn).toEqual({ tag: 'en', direction: 'ltr' });
    expect(await mailCopy('ar')).toMatchObject({ language: 'ar', writtenIn: { tag: 'ar', direction: 'rtl' } });
    expect(await mailCopy('es')).toMatchObject({ language: 'es', writtenIn: { tag: 'es', direction: 'ltr' } });
  });

  it('says it is in the default language where the words are the default’s: a language listed before its emails are translated', async () => {
    expect(await mailCopy(UNTRANSLATED)).toMatchObject({ language: UNTRANSLATED, writtenIn: { tag: 'en', direction: 'ltr' } });
  });
});
