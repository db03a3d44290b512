import { describe, expect, it } from 'vitest';

import {
  DEFAULT_SEGMENT,
  isLanguageTag,
  languageOfSegment,
  localePath,
  localizeHref,
  MAX_LANGUAGES,
  toSiteLanguages,
  withLocalHrefs,
} from './languages';

const site = toSiteLanguages({
  languages: [
    { tag: 'en', name: 'English', direction: 'ltr' },
    { tag: 'es', name: 'Español', direction: 'ltr' },
    { tag: 'ar', name: 'العربية', direction: 'rtl' },
  ],
  defaultLanguage: 'en',
  governingLanguage: 'en',
});

describe('language tags', () => {
  it.each(['en', 'es', 'es-MX', 'zh-Hant', 'zh-Hant-TW', 'es-419', 'fil'])('takes %s', (tag) => expect(isLanguageTag(tag)).toBe(true));
  it.each(['ES', 'es_MX', 'es-mx', 'english', 'x-klingon', '', 'es/..', 'e', 'es-MX-x-private', '..'])('refuses %j', (tag) =>
    expect(isLanguageTag(tag)).toBe(false),
  );
});

describe('paths in a language', () => {
  it('the default language has no prefix; every other lives under its tag', () => {
    expect(localePath('/', 'en', site)).toBe('/');
    expect(localePath('/support', 'en', site)).toBe('/support');
    expect(localePath('/', 'es', site)).toBe('/es');
    expect(localePath('/privacy/versions/2026-11-22', 'es', site)).toBe('/es/privacy/versions/2026-11-22');
  });

  it("puts the site's links under a prefix, keeping query and fragment, once; leaves other links alone", () => {
    expect(localizeHref('/#features', '/es')).toBe('/es#features');
    expect(localizeHref('/support?x=1#y', '/es')).toBe('/es/support?x=1#y');
    expect(localizeHref('/es/support', '/es')).toBe('/es/support');
    expect(localizeHref('/estimates', '/es')).toBe('/es/estimates');
    for (const href of ['https://example.com/support', '//evil.example/x', 'mailto:a@b.co', '#top'])
      expect(localizeHref(href, '/es')).toBe(href);
    expect(localizeHref('/support', '')).toBe('/support');
  });

  it('a view gets every href under the prefix, nested in lists and objects, and nothing else changes', () => {
    const view = { title: '/not-a-link', links: [{ href: '/privacy', label: 'P' }], body: [{ markDefs: [{ href: '/support' }] }] };
    expect(withLocalHrefs(view, '/es')).toEqual({
      title: '/not-a-link',
      links: [{ href: '/es/privacy', label: 'P' }],
      body: [{ markDefs: [{ href: '/es/support' }] }],
    });
    expect(withLocalHrefs(view, '')).toBe(view);
  });
});

describe("the site's languages", () => {
  it("a route segment names a listed language other than the default; the default's is its own segment", () => {
    expect(languageOfSegment(DEFAULT_SEGMENT, site)?.tag).toBe('en');
    expect(languageOfSegment('es', site)?.name).toBe('Español');
    expect(languageOfSegment('ar', site)?.direction).toBe('rtl');
    for (const segment of ['en', 'xx', 'ES', '']) expect(languageOfSegment(segment, site), segment).toBeNull();
  });

  it('keeps well-formed tags once, at most MAX_LANGUAGES, and a default among them; English with none listed', () => {
    expect(toSiteLanguages(null)).toEqual({
      languages: [{ tag: 'en', name: 'English', direction: 'ltr' }],
      defaultLanguage: 'en',
      governingLanguage: 'en',
    });
    const many = Array.from({ length: MAX_LANGUAGES + 10 }, (_, index) => ({
      tag: `a${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}`,
      name: null,
      direction: null,
    }));
    expect(toSiteLanguages({ languages: many }).languages.length).toBeLessThanOrEqual(MAX_LANGUAGES);
    const odd = toSiteLanguages({
      languages: [{ tag: 'ES' }, { tag: 'es' }, { tag: 'es' }],
      defaultLanguage: 'fr',
      governingLanguage: 'ES',
    });
    expect(odd).toEqual({ languages: [{ tag: 'es', name: 'es', direction: 'ltr' }], defaultLanguage: 'es', governingLanguage: 'es' });
  });
});
