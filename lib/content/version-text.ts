import type { POLICY_VERSION_QUERY_RESULT } from '@/sanity.types';

import { isUpToDate } from '@/lib/policy/policy-record';
import { withDates, type VersionsCopy } from '@/lib/policy/version-copy';
import { versionPath } from '@/lib/shared/public-pages';
import type { LangAttrs } from '@/lib/shared/text-language';
import { formatDate } from '@/lib/shared/view-fields';

/**
 * Which text of a version a reader of another language than the default reads: the record keeps each
 * language's text of each version (policy-record.ts), and a translation of words the version no longer has
 * is never shown as the version's.
 */

type Version = NonNullable<POLICY_VERSION_QUERY_RESULT['version']>;
type Recorded = Pick<Version, 'publishedAt' | 'correctedAt' | 'translation'>;

/** Whether a version has a text in the query's language that is of its text as it stands (policy-record.ts). */
const translated = <V extends Recorded>(version: V): version is V & { translation: NonNullable<V['translation']> } =>
  !!version.translation?.recordedAt &&
  !!version.publishedAt &&
  isUpToDate(
    { publishedAt: version.publishedAt, correctedAt: version.correctedAt ?? undefined },
    { recordedAt: version.translation.recordedAt },
  );

type Texts = Recorded & { title: string | null; summary: string | null; sections: Version['sections'] };

/**
 * A version's text as a reader of the query's language reads it: its translation, when the language is
 * not the default and the translation is of the version as it stands; otherwise the default (governing)
 * text, `pending` when a translation was wanted. Never a translation of another text.
 */
export function readerText<V extends Texts>(version: V, isDefault: boolean) {
  if (isDefault) return { ...version, pending: false, translated: false };
  if (!translated(version)) return { ...version, pending: true, translated: false };
  const { title, summary, sections } = version.translation;
  return { ...version, title, summary, sections, pending: false, translated: true };
}

/**
 * The attributes of a text of a version on a page: `governing`'s (the default language's on a page in
 * another) while the reader's is not ready, none when the text is the reader's own.
 */
export const textLanguage = (text: { pending: boolean }, governing: LangAttrs | null | undefined): LangAttrs | undefined =>
  (text.pending && governing) || undefined;

/** The newest of `earlier` (newest first) whose translation a reader may read as that version's. */
export const earlierTranslation = (earlier: readonly (Recorded & { date: string | null })[]) => earlier.find(translated)?.date ?? null;

/** On a page in another language than the default: the line saying which text governs, or that the translation is not ready. */
export function languageLines(text: { pending: boolean; translated: boolean }, copy: VersionsCopy, earlier: string | null = null) {
  return {
    governingNote: text.translated ? copy.governingNote : null,
    translationPending: text.pending
      ? {
          line: copy.translationPending,
          earlier: earlier
            ? { label: withDates(copy.earlierTranslationLink, { date: formatDate(earlier, copy.locale) }), href: versionPath(earlier) }
            : null,
        }
      : null,
  };
}

/**
 * What a diff compares: both versions in the reader's language when both have it, else both in the default
 * (`pending` when the reader's was wanted); a diff across languages says nothing.
 */
export function comparedTexts<A extends Texts, B extends Texts>(version: A, previous: B, isDefault: boolean) {
  const [after, before] = [readerText(version, isDefault), readerText(previous, isDefault)];
  if (after.translated && before.translated) return [after, before] as const;
  const governing = { pending: !isDefault, translated: false };
  return [
    { ...version, ...governing },
    { ...previous, ...governing },
  ] as const;
}
