import type { PRIVACY_POLICY_QUERY_RESULT } from '@/sanity.types';

import { fillTokens } from '@/lib/shared/tokens';
import { texts } from '@/lib/shared/view-fields';

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

export type VersionsCopy = Record<(typeof KEYS)[number], string>;

export const toVersionsCopy = (versions: VersionsResult): VersionsCopy => texts(versions, KEYS);

/** A text with its {date}, {from} and {to} filled in, each already written as the page shows dates (or {page} and {pages}). */
export const withDates = (text: string, values: { date?: string; from?: string; to?: string | null; page?: number; pages?: number }) =>
  fillTokens(text, values);
