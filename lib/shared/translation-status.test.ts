import { describe, expect, it } from 'vitest';

import { translationId, translationLanguage, translationStatus, untranslatedFields } from './translation-status';

const SITE = {
  languages: [
    { tag: 'en', name: 'English', direction: 'ltr' },
    { tag: 'es', name: 'Español', direction: 'ltr' },
    { tag: 'vi', name: 'Tiếng Việt', direction: 'ltr' },
    { tag: 'ar', name: 'العربية', direction: 'rtl' },
  ],
  defaultLanguage: 'en',
  governingLanguage: 'en',
} as const;
const states = (result: ReturnType<typeof translationStatus>) => Object.fromEntries(result.map(({ tag, state }) => [tag, state]));

describe("a page's translations", () => {
  it('are the source, translated, missing, or out of date once the source is published after them', () => {
    const docs = [
      { _id: 'landingPage', _updatedAt: '2026-12-02T10:00:00Z' },
      { _id: 'landingPage-es', language: 'es', _updatedAt: '2026-12-03T10:00:00Z' },
      { _id: 'landingPage-vi', language: 'vi', _updatedAt: '2026-12-01T10:00:00Z' },
    ];
    const result = translationStatus(SITE, docs, 'landingPage');
    expect(states(result)).toEqual({ en: 'source', es: 'translated', vi: 'outdated', ar: 'missing' });
    expect(result.find(({ tag }) => tag === 'es')!.id).toBe('landingPage-es');
    expect(result.find(({ tag }) => tag === 'ar')!.id).toBeNull();
  });

  it('of the policy follow the record: published before the source, of its version, is translated; dated ahead, it waits', () => {
    const docs = [
      { _id: 'privacyPolicy', _updatedAt: '2026-12-03T10:00:00Z', lastUpdated: '2027-01-15' },
      { _id: 'privacyPolicy-es', language: 'es', _updatedAt: '2026-12-02T10:00:00Z', lastUpdated: '2027-01-15' },
      { _id: 'privacyPolicy-vi', language: 'vi', _updatedAt: '2026-12-04T10:00:00Z', lastUpdated: '2027-01-15' },
      { _id: 'privacyPolicy-ar', language: 'ar', _updatedAt: '2026-12-04T10:00:00Z', lastUpdated: '2027-02-01' },
    ];
    const recorded = { date: '2027-01-15', upToDate: { es: true, vi: false } };
    expect(states(translationStatus(SITE, docs, 'privacyPolicy', recorded))).toEqual({
      en: 'source',
      es: 'translated',
      vi: 'outdated',
      ar: 'waiting',
    });
  });
});

describe('a translation without some of the words of its source', () => {
  const source = {
    _id: 'landingPage',
    _updatedAt: '2026-12-02T10:00:00Z',
    hero: { _type: 'hero', headline: 'Connect Locally', scrollLabel: 'Scroll' },
    faq: { heading: 'FAQ', items: [{ _key: 'a', question: 'Who?', answer: 'Neighbours.' }] },
    stayUpdated: { heading: 'Stay Updated' },
    seo: { title: 'Home' },
    materialChange: true,
  };

  it('is incomplete, naming each top-level field the source has words in and it lacks or leaves empty', () => {
    const docs = [
      source,
      // Its hero lacks the source's scrollLabel: what counts is a top-level field with words.
      {
        _id: 'landingPage-es',
        language: 'es',
        _updatedAt: '2026-12-03T10:00:00Z',
        hero: { headline: 'Conecta' },
        seo: { title: ' ' },
        stayUpdated: { _type: 'stayUpdated' },
      },
      { ...source, _id: 'landingPage-vi', language: 'vi', _updatedAt: '2026-12-03T10:00:00Z' },
    ];
    const result = translationStatus(SITE, docs, 'landingPage');
    expect(states(result)).toEqual({ en: 'source', es: 'incomplete', vi: 'translated', ar: 'missing' });
    expect(Object.fromEntries(result.map(({ tag, missingFields }) => [tag, missingFields]))).toEqual({
      en: [],
      es: ['faq', 'stayUpdated', 'seo'],
      vi: [],
      ar: [],
    });
  });

  it('stays out of date when it is, naming the fields it lacks', () => {
    const docs = [source, { _id: 'landingPage-es', language: 'es', _updatedAt: '2026-12-01T10:00:00Z', hero: source.hero }];
    const [, es] = translationStatus(SITE, docs, 'landingPage');
    expect(es).toMatchObject({ state: 'outdated', missingFields: ['faq', 'stayUpdated', 'seo'] });
  });

  it('needs none of the site-wide settings, flags or numbers: only words', () => {
    const settings = {
      _id: 'siteSettings',
      _updatedAt: '2026-12-02T10:00:00Z',
      productName: 'Nearby',
      radiusMiles: 3,
      timeZone: 'UTC',
      languages: [{ _key: 'en', tag: 'en' }],
      defaultLanguage: 'en',
    };
    expect(untranslatedFields(settings, { _id: 'siteSettings-es', language: 'es', _updatedAt: '', productName: 'Cerca' })).toEqual([]);
    expect(untranslatedFields(source, { ...source, _id: 'landingPage-es', language: 'es', materialChange: undefined })).toEqual([]);
  });
});

describe("a translation's id", () => {
  it('names its language, which the source and other documents do not', () => {
    expect(translationLanguage(translationId('landingPage', 'es'), 'landingPage')).toBe('es');
    expect(translationLanguage('privacyPolicy-zh-Hant', 'privacyPolicy')).toBe('zh-Hant');
    for (const [id, source] of [
      ['landingPage', 'landingPage'],
      ['privacyPolicyVersion-2026-11-22', 'privacyPolicyVersion'],
      ['landingPage-es', 'supportPage'],
      ['landingPage-ES', 'landingPage'],
      ['landingPage-', 'landingPage'],
    ] as const)
      expect(translationLanguage(id, source), id).toBeNull();
  });
});
