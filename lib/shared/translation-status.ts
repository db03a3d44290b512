import { isLanguageTag, type SiteLanguages } from './languages';
import { RETENTION_FIELDS } from './retention';

/**
 * How each language of the site stands for one page (a singleton and its translations), for the Studio's
 * Translations view. A translation is out of date when its source was published again after it: the
 * privacy policy's record says so per version instead (policy-record.ts), as its translations are
 * published before the source by rule. One that lacks words the source has is incomplete: the site
 * shows the source's words there, field by field.
 */

export type TranslationState = 'source' | 'translated' | 'incomplete' | 'missing' | 'outdated' | 'waiting';

/** A published document of the page, as the view reads it: the whole document, its fields compared with the source's. */
export type PublishedDoc = {
  _id: string;
  language?: string | null;
  _updatedAt: string;
  lastUpdated?: string | null;
  [field: string]: unknown;
};

/** The policy's version in effect for the source's date, as the record holds it, with whether each language's text is of it. */
export type RecordedTexts = { date: string; upToDate: Record<string, boolean> };

/** `missingFields`: the source's fields with words that this translation lacks or leaves empty. */
export type LanguageStatus = { tag: string; name: string; state: TranslationState; id: string | null; missingFields: string[] };

/**
 * Site settings the site reads from the default language's document in every language: the site's
 * settings, not its words, so a translation needs none of them.
 */
export const SITE_WIDE_FIELDS: readonly string[] = [
  'radiusMiles',
  'appStoreUrl',
  'playStoreUrl',
  'languages',
  'defaultLanguage',
  'governingLanguage',
  'timeZone',
  'noticePeriodDays',
  'announceBeforeTranslations',
  ...Object.values(RETENTION_FIELDS),
];

/** Whether a value holds words: a string with a visible character, or an array or object that holds one (keys and types aside). */
function hasWords(value: unknown): boolean {
  if (typeof value === 'string') return /\S/.test(value);
  if (Array.isArray(value)) return value.some(hasWords);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => !key.startsWith('_') && hasWords(item));
  return false;
}

/** The top-level fields of `source` with words that `translation` lacks or leaves empty (its language and the site-wide settings aside). */
export function untranslatedFields(source: PublishedDoc, translation: PublishedDoc): string[] {
  return Object.keys(source).filter(
    (field) =>
      !field.startsWith('_') &&
      field !== 'language' &&
      !SITE_WIDE_FIELDS.includes(field) &&
      hasWords(source[field]) &&
      !hasWords(translation[field]),
  );
}

/** The id a new translation of `sourceId` into `tag` gets: one per language, so a second is never made. */
export const translationId = (sourceId: string, tag: string) => `${sourceId}-${tag}`;

/** The language of translation `id` of `sourceId` (translationId's tag), or null for the source or any other id. */
export function translationLanguage(id: string, sourceId: string): string | null {
  const tag = id.startsWith(`${sourceId}-`) ? id.slice(sourceId.length + 1) : '';
  return isLanguageTag(tag) ? tag : null;
}

/** How a translation stands by its date against the source's: out of date and waiting come before incomplete. */
function stateOf(source: PublishedDoc | undefined, doc: PublishedDoc | undefined, tag: string, recorded?: RecordedTexts): TranslationState {
  if (!doc) return 'missing';
  if (recorded && source?.lastUpdated) {
    if (doc.lastUpdated && doc.lastUpdated > source.lastUpdated) return 'waiting';
    if (tag in recorded.upToDate) return recorded.upToDate[tag] ? 'translated' : 'outdated';
    return doc.lastUpdated === source.lastUpdated ? 'translated' : 'outdated';
  }
  return source && source._updatedAt > doc._updatedAt ? 'outdated' : 'translated';
}

/**
 * Each of the site's languages for one page: the source (the default language's), translated, incomplete
 * (translated, but without some of the source's words), missing, out of date or waiting for its version.
 */
export function translationStatus(
  site: SiteLanguages,
  docs: readonly PublishedDoc[],
  sourceId: string,
  recorded?: RecordedTexts,
): LanguageStatus[] {
  const source = docs.find((doc) => !doc.language);
  return site.languages.map(({ tag, name }) => {
    if (tag === site.defaultLanguage) return { tag, name, state: 'source', id: sourceId, missingFields: [] };
    const doc = docs.find((each) => each.language === tag);
    const missingFields = source && doc ? untranslatedFields(source, doc) : [];
    const state = stateOf(source, doc, tag, recorded);
    return {
      tag,
      name,
      state: state === 'translated' && missingFields.length > 0 ? 'incomplete' : state,
      id: doc?._id ?? null,
      missingFields,
    };
  });
}
