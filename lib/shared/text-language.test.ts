// What Sanity's client uses to encode stega in draft mode (a dependency of @sanity/client).
import { vercelStegaCombine } from '@vercel/stega';
import { describe, expect, it } from 'vitest';

import { defaultLanguageAttrs, fallbackLanguage } from './text-language';

const SITE = {
  languages: [
    { tag: 'en', name: 'English', direction: 'ltr' },
    { tag: 'ar', name: 'العربية', direction: 'rtl' },
  ],
  defaultLanguage: 'en',
  governingLanguage: 'en',
} as const;

describe("the default language's words on a page in another", () => {
  it('carry its tag and its own direction; on its own pages, nothing', () => {
    expect(defaultLanguageAttrs(SITE, 'ar')).toEqual({ lang: 'en', dir: 'ltr' });
    expect(defaultLanguageAttrs(SITE, 'en')).toBeNull();
    expect(defaultLanguageAttrs({ ...SITE, defaultLanguage: 'ar', governingLanguage: 'ar' }, 'en')).toEqual({ lang: 'ar', dir: 'rtl' });
  });

  const EN = { lang: 'en', dir: 'ltr' } as const;
  const fallback = ['faq', 'faq.heading', 'faq.items', 'hero.scrollLabel', 'seo'] as const;

  it('mark a section whole when all of it fell back, else each field that did', () => {
    const words = fallbackLanguage<(typeof fallback)[number] | 'hero' | 'hero.headline'>(fallback, EN);
    expect(words.section('faq')).toEqual({ lang: EN, langOf: {} });
    expect(words.section('hero')).toEqual({ langOf: { scrollLabel: EN } });
    expect(words.fields('faq')).toEqual({ heading: EN, items: EN });
    expect([words.of('seo'), words.of('hero')]).toEqual([EN, undefined]);
  });

  it('read the names as draft mode sends them, each with its invisible source marker', () => {
    const marked = fallback.map((path) => vercelStegaCombine(path, { origin: 'sanity.io', href: '/studio' }));
    expect(fallbackLanguage<string>(marked, EN).section('faq')).toEqual({ lang: EN, langOf: {} });
  });

  it('mark nothing where the page is in the default language', () => {
    const words = fallbackLanguage(fallback, null);
    expect([words.section('faq'), words.fields('faq'), words.of('seo')]).toEqual([{ langOf: {} }, {}, undefined]);
  });
});
