import { changesPath, ROUTES } from '@/lib/shared/public-pages';
import type { UpcomingView } from '@/lib/policy/policy-notice-views';
import { toVersionsCopy } from '@/lib/policy/version-copy';
import { fallbackLanguage, type LangAttrs } from '@/lib/shared/text-language';
import { fillTokens } from '@/lib/shared/tokens';
import { cleanOrNull, formatDate, pageMeta, text } from '@/lib/shared/view-fields';
import type { BlockContent, PRIVACY_POLICY_QUERY_RESULT } from '@/sanity.types';

import { settingsTokens } from './settings-tokens';
import { textLanguage, type languageLines } from './version-text';
import type { SettingsResult } from './views';

/**
 * The view of /privacy (and what the versions pages take from it), as views.ts makes the other pages':
 * stega kept in visible text, clean in attributes, and `langOf` where words are the default language's.
 */

type PrivacyResult = NonNullable<PRIVACY_POLICY_QUERY_RESULT>;

/** Portable Text with its link targets clean (they become href attributes). */
const withCleanLinks = (blocks: BlockContent): BlockContent =>
  blocks.map((block) =>
    block.markDefs ? { ...block, markDefs: block.markDefs.map((mark) => ({ ...mark, href: cleanOrNull(mark.href) ?? undefined })) } : block,
  );

/** A policy's sections, as /privacy and each earlier version show them. */
export const policySections = (sections: PrivacyResult['sections'], settings: SettingsResult) =>
  fillTokens(sections ?? [], settingsTokens(settings)).map((section) => ({
    _key: section._key,
    heading: text(section.heading),
    body: withCleanLinks(section.body ?? []),
  }));

/**
 * What /privacy shows: the policy document itself (in draft mode, or with no record), or, for visitors,
 * the version of the record in effect today (policy-schedule.ts) with the policy's own words around it.
 */
export type PolicyShown = {
  /**
   * The record's text of the version in effect; without it, the document's own (a translation of that
   * version). `pending`: the default language's (governing) text, as the reader's is not ready (version-text.ts).
   */
  version?: Pick<PrivacyResult, 'title' | 'summary' | 'sections'> & { date: string | null; pending: boolean };
  previousDate: string | null;
  upcoming: UpcomingView | null;
  /** The reader's language beside the default: which text governs, or that its translation is not ready (version-text.ts). */
  lines?: ReturnType<typeof languageLines>;
};

export function toPrivacyView(result: PrivacyResult, settings: SettingsResult, shown?: PolicyShown, fallbackLang: LangAttrs | null = null) {
  const { lastUpdatedLabel, seo } = result;
  const source = shown?.version ?? { ...result, date: result.lastUpdated };
  const { title, summary, sections } = fillTokens(source, settingsTokens(settings));
  const date = cleanOrNull(source.date);
  const previousDate = shown ? shown.previousDate : result.previousDate;
  const versions = toVersionsCopy(result);
  const words = fallbackLanguage(result.fallback, fallbackLang);
  // The record's text is all in one language; the document's, field by field.
  const governing = shown?.version ? textLanguage(shown.version, fallbackLang) : null;
  return {
    meta: pageMeta(seo),
    langOf: {
      title: governing === null ? words.of('title') : governing,
      summary: governing === null ? words.of('summary') : governing,
      sections: governing === null ? words.of('sections') : governing,
      lastUpdatedLabel: words.of('lastUpdatedLabel'),
      // The words of the versions pages: its notes, its links, the summary's label.
      versions: words.of('versions'),
      // What the governing text carries here, wherever a page shows it instead of the reader's (version-text.ts).
      governing: fallbackLang ?? undefined,
    } satisfies PolicyLanguages,
    title: text(title),
    lastUpdated: date ? { label: text(lastUpdatedLabel), dateTime: date, text: formatDate(date, versions.locale) } : null,
    summary: summary ? { label: versions.summaryLabel, text: text(summary) } : null,
    versionsLink: { label: versions.earlierLink, href: ROUTES.versions },
    // Only where there is an earlier version to compare with.
    changesLink: date && previousDate ? { label: versions.changesLink, href: changesPath(date) } : null,
    sections: policySections(sections, settings),
    // Its summary is the record's, in the default language, as on the list of versions.
    upcoming: shown?.upcoming ? { ...shown.upcoming, lang: words.of('versions'), summaryLang: fallbackLang ?? undefined } : null,
    governingNote: shown?.lines?.governingNote ?? null,
    translationPending: shown?.lines?.translationPending ?? null,
    versions,
  };
}

/** The attributes of each of a policy page's parts that is in the default language on a page in another, and of the governing text there. */
export type PolicyLanguages = Record<
  'title' | 'summary' | 'sections' | 'lastUpdatedLabel' | 'versions' | 'governing',
  LangAttrs | undefined
>;

export type PrivacyPolicyView = ReturnType<typeof toPrivacyView>;
