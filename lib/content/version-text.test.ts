import { describe, expect, it } from 'vitest';

import { comparedTexts, readerText, textLanguage } from './version-text';

const EN = { lang: 'en', dir: 'ltr' } as const;

/** A version of the record, with a Spanish text recorded after it was published (or none). */
const version = (translated: boolean) => ({
  title: 'Privacy Policy',
  summary: null,
  sections: null,
  publishedAt: '2026-11-01T00:00:00Z',
  correctedAt: null,
  translation: translated ? { title: 'Política de privacidad', summary: null, recordedAt: '2026-11-02T00:00:00Z', sections: null } : null,
});

describe("a version's text on a page in another language than the default", () => {
  it('is the governing text, in the default language, while the reader’s is not ready', () => {
    expect(textLanguage(readerText(version(false), false), EN)).toEqual(EN);
    expect(textLanguage(readerText(version(true), false), EN)).toBeUndefined();
    expect(textLanguage(readerText(version(false), true), null)).toBeUndefined();
  });

  it('compared with the one before: both in the default language, marked, unless both have the reader’s', () => {
    const [after] = comparedTexts(version(true), version(false), false);
    expect(after.title).toBe('Privacy Policy');
    expect(textLanguage(after, EN)).toEqual(EN);
    const [translated] = comparedTexts(version(true), version(true), false);
    expect([translated.title, textLanguage(translated, EN)]).toEqual(['Política de privacidad', undefined]);
  });
});
