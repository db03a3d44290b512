import { afterEach, describe, expect, it } from 'vitest';

import {
  isLanguageTag,
  languageDirection,
  languageOfSegment,
  localePath,
  localizeHref,
  MAX_LANGUAGES,
  ownName,
  tagProposal,
  toSiteLanguages,
  withLocalHrefs,
} from './languages';
import { DEFAULT_SEGMENT } from './public-pages';

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

describe('the direction of a tag', () => {
  const RTL = ['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb', 'syr', 'az-Arab', 'pa-Arab', 'ar-EG', 'nqo', 'ff-Adlm'];
  const LTR = ['en', 'es', 'es-MX', 'vi', 'zh-Hant', 'ja', 'az', 'az-Latn', 'he-Latn', 'pa', 'mn-Mong'];

  it.each(RTL)('%s is written right to left', (tag) => expect(languageDirection(tag)).toBe('rtl'));
  it.each(LTR)('%s is written left to right', (tag) => expect(languageDirection(tag)).toBe('ltr'));

  describe("where Intl has no text info (Firefox's getter, or neither)", () => {
    const prototype = Intl.Locale.prototype as object;
    const own = (name: string) => [name, Object.getOwnPropertyDescriptor(prototype, name)] as const;
    const saved = [own('getTextInfo'), own('textInfo')];
    afterEach(() => {
      for (const [name, descriptor] of saved) if (descriptor) Object.defineProperty(prototype, name, descriptor);
    });
    const without = (...names: string[]) => {
      for (const name of names) Reflect.deleteProperty(prototype, name);
    };

    it('reads the textInfo getter', () => {
      without('getTextInfo');
      expect(languageDirection('ar')).toBe('rtl');
      expect(languageDirection('es')).toBe('ltr');
    });

    it("falls back to CLDR's right-to-left scripts and languages", () => {
      without('getTextInfo', 'textInfo');
      expect(new Intl.Locale('ar')).not.toHaveProperty('textInfo');
      for (const tag of ['ar', 'he', 'ckb', 'az-Arab', 'ff-Adlm']) expect(languageDirection(tag), tag).toBe('rtl');
      for (const tag of ['en', 'es', 'az', 'he-Latn', 'zh-Hant']) expect(languageDirection(tag), tag).toBe('ltr');
    });
  });
});

describe("a language's own name", () => {
  it.each([
    ['ar', 'العربية'],
    ['es', 'Español'],
    ['vi', 'Tiếng Việt'],
    ['he', 'עברית'],
  ])('%s is %s', (tag, name) => expect(ownName(tag)).toBe(name));

  it('is none where Intl knows no name', () => expect(ownName('api')).toBeUndefined());
});

describe('what the Studio fills in as a tag is typed', () => {
  it('an empty name, and the direction', () => {
    expect(tagProposal({ tag: 'ar', direction: 'ltr' }, undefined)).toEqual({ name: 'العربية', direction: 'rtl' });
    expect(tagProposal({ tag: 'es', name: ' ' }, 'en')).toEqual({ name: 'Español', direction: 'ltr' });
  });

  it("the name proposed for the tag before, never the editor's own", () => {
    expect(tagProposal({ tag: 'es-MX', name: 'Español', direction: 'ltr' }, 'es')).toEqual({ name: 'Español de México' });
    expect(tagProposal({ tag: 'ar', name: 'Español', direction: 'ltr' }, 'es')).toEqual({ name: 'العربية', direction: 'rtl' });
    expect(tagProposal({ tag: 'ar', name: 'Arabic', direction: 'ltr' }, 'es')).toEqual({ direction: 'rtl' });
  });

  it('no name where the old proposal would be wrong and Intl knows no other', () => {
    expect(tagProposal({ tag: 'api', name: 'Español', direction: 'ltr' }, 'es')).toEqual({ name: null });
  });

  it('nothing that already agrees, and nothing for what is not a tag yet', () => {
    expect(tagProposal({ tag: 'he', name: 'עברית', direction: 'rtl' }, 'he')).toEqual({});
    expect(tagProposal({ tag: 'es-', name: '', direction: 'ltr' }, 'es')).toEqual({});
  });
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

  it('leaves out a tag no language of the site may have, and lays each out as its tag is written, whatever was stored', () => {
    const stored = toSiteLanguages({
      languages: [
        { tag: 'en', name: 'English', direction: 'ltr' },
        { tag: 'api', name: 'API', direction: 'ltr' },
        { tag: 'und', name: '?', direction: 'ltr' },
        { tag: 'ar', name: 'العربية', direction: 'ltr' },
      ],
      defaultLanguage: 'en',
    });
    expect(stored.languages).toEqual([
      { tag: 'en', name: 'English', direction: 'ltr' },
      { tag: 'ar', name: 'العربية', direction: 'rtl' },
    ]);
  });
});
