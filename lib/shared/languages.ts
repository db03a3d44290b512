import { DEFAULT_SEGMENT, SITE_SEGMENTS } from './public-pages.ts';

/**
 * The site's languages are content (Site settings); these are the rules every side shares: what a
 * language tag is, and where a page lives in each language. The default language has no prefix
 * (/support); every other lives under its tag (/es/support).
 */

export type Direction = 'ltr' | 'rtl';
export type Language = { tag: string; name: string; direction: Direction };

/** The languages a site has: one is the default, one the language whose text of the policy governs. */
export type SiteLanguages = { languages: readonly Language[]; defaultLanguage: string; governingLanguage: string };

/** At most this many: each is a set of pages, so the settings bound what a build and a server hold. */
export const MAX_LANGUAGES = 50;

/**
 * A BCP 47 tag in its canonical spelling ("es", "es-MX", "zh-Hant", "ar"): what Intl makes of it, and no
 * private use or extension. Another spelling ("ES", "es_mx") is not a tag of this site, so a path in it is
 * not one of its pages.
 */
export function isLanguageTag(value: string): boolean {
  if (!/^[a-z]{2,3}(?:-[A-Z][a-z]{3})?(?:-(?:[A-Z]{2}|\d{3}))?$/.test(value)) return false;
  try {
    return Intl.getCanonicalLocales(value)[0] === value;
  } catch {
    return false;
  }
}

// Where a browser's Intl has neither getTextInfo() nor textInfo: the scripts CLDR writes right to left,
// and the languages it writes so when the tag names no script.
const RTL_SCRIPTS: ReadonlySet<string> = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg']);
const RTL_LANGUAGES: ReadonlySet<string> = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb', 'syr']);

// Node and Chromium have getTextInfo(), Firefox the textInfo getter; TypeScript's lib has neither yet.
type TextInfo = { direction?: string };
type LocaleWithTextInfo = Intl.Locale & { getTextInfo?: () => TextInfo; textInfo?: TextInfo };

/** The direction language `tag` (a tag isLanguageTag takes) is written in, as CLDR says: "ar" and "az-Arab" right to left. */
export function languageDirection(tag: string): Direction {
  const locale: LocaleWithTextInfo = new Intl.Locale(tag);
  const direction = (locale.getTextInfo?.() ?? locale.textInfo)?.direction;
  if (direction === 'ltr' || direction === 'rtl') return direction;
  const rtl = locale.script ? RTL_SCRIPTS.has(locale.script) : RTL_LANGUAGES.has(locale.language);
  return rtl ? 'rtl' : 'ltr';
}

/** The language's name in itself, as Intl knows it, capitalised as a menu item starts: "Español", "العربية"; none unknown. */
export function ownName(tag: string): string | undefined {
  const [first = '', ...rest] = new Intl.DisplayNames([tag], { type: 'language', fallback: 'none' }).of(tag) ?? '';
  return first ? first.toLocaleUpperCase(tag) + rest.join('') : undefined;
}

/**
 * What the Studio changes in a language of the settings as its tag is typed over `previous` (the last
 * tag typed in full): the name, unless the editor wrote their own (null: the old proposal would be wrong
 * and Intl knows no other), and the direction, which follows the tag.
 */
export function tagProposal(
  { tag, name, direction }: { tag?: string; name?: string; direction?: string },
  previous: string | undefined,
): { name?: string | null; direction?: Direction } {
  if (!tag || !isLanguageTag(tag)) return {};
  const proposed = ownName(tag) ?? null;
  const current = name?.trim() || null;
  const editorsOwn = current !== null && !(previous && isLanguageTag(previous) && current === ownName(previous));
  const written = languageDirection(tag);
  return {
    ...(editorsOwn || current === proposed ? {} : { name: proposed }),
    ...(direction === written ? {} : { direction: written }),
  };
}

/** A path of the site (as ROUTES names it) in language `tag`. */
export function localePath(path: string, tag: string, { defaultLanguage }: Pick<SiteLanguages, 'defaultLanguage'>): string {
  if (tag === defaultLanguage) return path;
  return path === '/' ? `/${tag}` : `/${tag}${path}`;
}

/** The language a route segment names: the default's for DEFAULT_SEGMENT, a listed one's own; null for any other. */
export function languageOfSegment(segment: string, site: SiteLanguages): Language | null {
  const tag = segment === DEFAULT_SEGMENT ? site.defaultLanguage : segment;
  if (segment !== DEFAULT_SEGMENT && tag === site.defaultLanguage) return null;
  return site.languages.find((language) => language.tag === tag) ?? null;
}

/** The route segment of language `tag`. */
export const segmentOf = (tag: string, { defaultLanguage }: Pick<SiteLanguages, 'defaultLanguage'>) =>
  tag === defaultLanguage ? DEFAULT_SEGMENT : tag;

/** English, left to right: the site's language until Site settings list others. */
const ENGLISH: Language = { tag: 'en', name: 'English', direction: 'ltr' };

type LanguagesResult = {
  languages?: { tag?: string | null; name?: string | null; direction?: string | null }[] | null;
  defaultLanguage?: string | null;
  governingLanguage?: string | null;
} | null;

// ISO 639's codes that name no language: a page in one tells browsers, screen readers and search engines nothing.
const NO_LANGUAGE: Readonly<Record<string, string>> = {
  und: 'an undetermined language',
  zxx: 'no linguistic content',
  mul: 'several languages',
  mis: 'a language it has no code for',
};

/**
 * Why a well-formed tag (isLanguageTag) cannot be one of the site's languages, in an editor's words: it
 * starts the site's own addresses, or names no language. Null when it can. The Studio and every publish
 * path refuse such a tag (the schema); the site reading its settings leaves one out.
 */
export function siteTagProblem(tag: string): string | null {
  if (SITE_SEGMENTS.includes(tag))
    return `"${tag}" is the start of the site's own addresses (/${tag}/…): a language's pages cannot live there too, so no language of the site may have this tag.`;
  // Its first subtag, as the tag is canonical: Intl.Locale reads no language at all in "und".
  const [language = ''] = tag.split('-');
  const meaning = NO_LANGUAGE[language];
  return meaning === undefined
    ? null
    : `"${language}" names no language (ISO 639 keeps it for ${meaning}): browsers, screen readers and search engines could not tell which language the pages are in. Use the language's own tag.`;
}

/**
 * Site settings' languages as the site uses them: only tags a language of the site may have, each once,
 * the default among them, each laid out in the direction its tag is written in (what a publish requires,
 * held here too for content that came by another way).
 */
export function toSiteLanguages(result: LanguagesResult): SiteLanguages {
  const seen = new Set<string>();
  const languages = (result?.languages ?? []).slice(0, MAX_LANGUAGES).flatMap(({ tag, name }) => {
    if (!tag || !isLanguageTag(tag) || siteTagProblem(tag) !== null || seen.has(tag)) return [];
    seen.add(tag);
    return [{ tag, name: name?.trim() || tag, direction: languageDirection(tag) }];
  });
  const defaultLanguage =
    result?.defaultLanguage && seen.has(result.defaultLanguage) ? result.defaultLanguage : (languages[0]?.tag ?? ENGLISH.tag);
  const listed = languages.length > 0 ? languages : [ENGLISH];
  const governingLanguage = result?.governingLanguage && seen.has(result.governingLanguage) ? result.governingLanguage : defaultLanguage;
  return { languages: listed, defaultLanguage, governingLanguage };
}

/** What a page in language `tag` puts before its paths: nothing for the default language, "/<tag>" otherwise. */
export const pathPrefix = (tag: string, { defaultLanguage }: Pick<SiteLanguages, 'defaultLanguage'>) =>
  tag === defaultLanguage ? '' : `/${tag}`;

/** A link of the site (a path from "/", with its query and fragment) under `prefix`; any other href as it is. */
export function localizeHref(href: string, prefix: string): string {
  if (!prefix || !href.startsWith('/') || href.startsWith('//')) return href;
  const end = href.search(/[?#]/);
  const path = end < 0 ? href : href.slice(0, end);
  if (path === prefix || path.startsWith(`${prefix}/`)) return href;
  return `${path === '/' ? prefix : `${prefix}${path}`}${end < 0 ? '' : href.slice(end)}`;
}

/**
 * A view with every link of the site in it (each `href` that is a path, editors' links in the text
 * included) under `prefix`: the views are written once, with the site's paths, for every language.
 */
export function withLocalHrefs<T>(view: T, prefix: string): T {
  if (!prefix) return view;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        key === 'href' && typeof item === 'string' ? localizeHref(item, prefix) : walk(item),
      ]),
    );
  };
  return walk(view) as T;
}
