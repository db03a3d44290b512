import { isLanguageTag, type SiteLanguages } from './languages';

/**
 * How each language of the site stands for one page (a singleton and its translations), for the Studio's
 * Translations view. A translation is out of date when its source was published again after it: the
 * privacy policy's record says so per version instead (policy-record.ts), as its translations are
 * published before the source by rule.
 */

export type TranslationState = 'source' | 'translated' | 'missing' | 'outdated' | 'waiting';

/** A published document of the page, as the view reads it. */
export type PublishedDoc = { _id: string; language?: string | null; _updatedAt: string; lastUpdated?: string | null };

/** The policy's version in effect for the source's date, as the record holds it, with whether each language's text is of it. */
export type RecordedTexts = { date: string; upToDate: Record<string, boolean> };

export type LanguageStatus = { tag: string; name: string; state: TranslationState; id: string | null };

/** The id a new translation of `sourceId` into `tag` gets: one per language, so a second is never made. */
export const translationId = (sourceId: string, tag: string) => `${sourceId}-${tag}`;

/** The language of translation `id` of `sourceId` (translationId's tag), or null for the source or any other id. */
export function translationLanguage(id: string, sourceId: string): string | null {
  const tag = id.startsWith(`${sourceId}-`) ? id.slice(sourceId.length + 1) : '';
  return isLanguageTag(tag) ? tag : null;
}

function stateOf(source: PublishedDoc | undefined, doc: PublishedDoc | undefined, tag: string, recorded?: RecordedTexts): TranslationState {
  if (!doc) return 'missing';
  if (recorded && source?.lastUpdated) {
    if (doc.lastUpdated && doc.lastUpdated > source.lastUpdated) return 'waiting';
    if (tag in recorded.upToDate) return recorded.upToDate[tag] ? 'translated' : 'outdated';
    return doc.lastUpdated === source.lastUpdated ? 'translated' : 'outdated';
  }
  return source && source._updatedAt > doc._updatedAt ? 'outdated' : 'translated';
}

/** Each of the site's languages for one page: the source (the default language's), translated, missing, out of date or waiting for its version. */
export function translationStatus(
  site: SiteLanguages,
  docs: readonly PublishedDoc[],
  sourceId: string,
  recorded?: RecordedTexts,
): LanguageStatus[] {
  const source = docs.find((doc) => !doc.language);
  return site.languages.map(({ tag, name }) => {
    if (tag === site.defaultLanguage) return { tag, name, state: 'source', id: sourceId };
    const doc = docs.find((each) => each.language === tag);
    return { tag, name, state: stateOf(source, doc, tag, recorded), id: doc?._id ?? null };
  });
}
