import type { PRIVACY_POLICY_QUERY_RESULT } from '@/sanity.types';

import { fillTokens } from '@/lib/shared/tokens';
import { clean, texts } from '@/lib/shared/view-fields';

type VersionsResult = NonNullable<PRIVACY_POLICY_QUERY_RESULT>['versions'];

/** The words of the versions pages (schemas/singletons/policy-versions-copy.ts), each as `text` keeps it. */
const KEYS = [
  'earlierLink',
  'summaryLabel',
  'changesLink',
  'listHeading',
  'listIntro',
  'listDescription',
  'currentLabel',
  'inEffectSince',
  'inEffectRange',
  'olderLink',
  'newerLink',
  'pageLabel',
  'versionTitle',
  'notice',
  'currentLink',
  'correctedLabel',
  'changesHeading',
  'changesIntro',
  'addedSection',
  'removedSection',
  'unchangedSection',
  'addedWords',
  'removedWords',
  'siteNotice',
  'siteNoticeLink',
  'upcomingNotice',
  'upcomingLink',
  'upcomingChangesLink',
  'upcomingLabel',
  'takesEffect',
  'notYetNotice',
  'withdrawnLabel',
  'feedLink',
  'feedTitle',
  'feedAnnounced',
  'feedInEffect',
  'feedWithdrawn',
  'translationPending',
  'earlierTranslationLink',
  'governingNote',
] as const;

export type VersionsCopy = Record<(typeof KEYS)[number], string> & { locale: string };

/** The words of the versions' pages, and the language their dates are written in: the words' own. */
export const toVersionsCopy = ({ versions, locale }: { versions: VersionsResult; locale: string }): VersionsCopy => ({
  ...texts(versions, KEYS),
  // Clean: in draft mode every string carries stega markers, which Intl refuses.
  locale: clean(locale) || 'en',
});

/** A text with its {date}, {from} and {to} filled in, each already written as the page shows dates (or {page} and {pages}). */
export const withDates = (text: string, values: { date?: string; from?: string; to?: string | null; page?: number; pages?: number }) =>
  fillTokens(text, values);
