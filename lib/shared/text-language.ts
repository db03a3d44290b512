import { stegaClean } from '@sanity/client/stega';

import type { Direction, SiteLanguages } from './languages';

/**
 * Words in another language than their page's say so (WCAG 3.1.2): a screen reader then reads them in
 * their own voice, and on a right-to-left page their punctuation stays where it belongs. A page shows
 * the default language's words where its translation lacks a field (the queries' `fallback`); the
 * element around them carries these attributes, as React spreads them.
 */
export type LangAttrs = { lang: string; dir: Direction };

/** The attributes of the default language's words on a page in `tag`; null on a page in the default language, whose words need none. */
export function defaultLanguageAttrs(site: SiteLanguages, tag: string): LangAttrs | null {
  if (tag === site.defaultLanguage) return null;
  const direction = site.languages.find((language) => language.tag === site.defaultLanguage)?.direction ?? 'ltr';
  return { lang: site.defaultLanguage, dir: direction };
}

/** The fields of section `S` that a query's fallback names ("hero.headline" is hero's "headline"). */
type FieldOf<P extends string, S extends string> = P extends `${S}.${infer K}` ? K : never;

/** A section with an element of its own: its attributes when all of it is the default language's, else each field's that is. */
export type SectionLanguage<K extends string> = { lang?: LangAttrs; langOf: Partial<Record<K, LangAttrs>> };

/**
 * Reads a query's `fallback` (the fields it took from the default language's document) on a page whose
 * default-language words carry `attrs` (null on the default language's own page: nothing is marked).
 */
export function fallbackLanguage<P extends string>(fallback: readonly P[] | null | undefined, attrs: LangAttrs | null) {
  // Draft mode encodes every string of a result for click-to-edit, these names too.
  const fell = new Set<string>(attrs ? stegaClean(fallback ?? []) : []);
  /** The attributes of a field's element when its words are the default language's. */
  const of = (path: P): LangAttrs | undefined => (attrs && fell.has(path) ? attrs : undefined);
  /** Each field of object `name` whose words are the default language's, the whole object's included. */
  const fields = <S extends P>(name: S): Partial<Record<FieldOf<P, S>, LangAttrs>> =>
    Object.fromEntries(
      [...fell].filter((path) => path.startsWith(`${name}.`)).map((path) => [path.slice(name.length + 1), attrs]),
    ) as Partial<Record<FieldOf<P, S>, LangAttrs>>;
  /** A section: marked as a whole when all of it fell back (its fields then need no mark of their own), else field by field. */
  const section = <S extends P>(name: S): SectionLanguage<FieldOf<P, S>> => {
    const whole = of(name);
    return whole ? { lang: whole, langOf: {} } : { langOf: fields(name) };
  };
  return { of, fields, section };
}
