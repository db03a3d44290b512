import { ROUTES, changesPath, versionPath, versionsPagePath } from '@/lib/shared/public-pages';
import type { POLICY_VERSION_QUERY_RESULT, POLICY_VERSIONS_QUERY_RESULT } from '@/sanity.types';

import { inEffect, liveDates, pageCount, VERSIONS_PER_PAGE, type RecordDates } from '@/lib/policy/policy-archive';
import { diffSections } from '@/lib/policy/policy-diff';
import { dayIn } from '@/lib/shared/site-time';
import { withDates, type VersionsCopy } from '@/lib/policy/version-copy';
import { clean, formatDate, text } from '@/lib/shared/view-fields';
import { policySections, type PolicyLanguages, type PrivacyPolicyView } from './policy-view';
import type { SettingsResult } from './views';
import { languageLines, textLanguage, type readerText } from './version-text';

type Entry = Omit<POLICY_VERSIONS_QUERY_RESULT[number], 'date' | 'publishedAt'> & { date: string; publishedAt: string };
/**
 * The views of the policy's versions pages, made from the record (published, so free of
 * stega markers) and the policy's words for these pages (which carry them in draft mode).
 */

type Version = NonNullable<POLICY_VERSION_QUERY_RESULT['version']>;
type Previous = NonNullable<POLICY_VERSION_QUERY_RESULT['previous']>;
/** The record as the pages read it (lib/content/index.ts): its versions newest first, today, the one in effect. */
export type Schedule = Omit<RecordDates, 'versions'> & { versions: readonly Entry[]; timeZone: string };

/**
 * How a version stands today, in one line: withdrawn (and when), announced (and when it takes effect),
 * in effect since its day, or in effect from its day to the next version's.
 */
function standing({ date, withdrawnAt }: { date: string; withdrawnAt: string | null }, schedule: Schedule, copy: VersionsCopy) {
  if (withdrawnAt)
    return {
      state: 'withdrawn',
      line: withDates(copy.withdrawnLabel, { date: formatDate(dayIn(Date.parse(withdrawnAt), schedule.timeZone), copy.locale) }),
    } as const;
  if (date > schedule.today)
    return { state: 'upcoming', line: withDates(copy.takesEffect, { date: formatDate(date, copy.locale) }) } as const;
  const { from, to } = inEffect(
    date,
    liveDates(schedule).filter((day) => day <= schedule.today),
  );
  const line = to
    ? withDates(copy.inEffectRange, { from: formatDate(from, copy.locale), to: formatDate(to, copy.locale) })
    : withDates(copy.inEffectSince, { from: formatDate(from, copy.locale) });
  return { state: 'in-effect', line, from, to } as const;
}

const correctedText = (correctedAt: string | null, copy: VersionsCopy) =>
  correctedAt ? withDates(copy.correctedLabel, { date: formatDate(correctedAt.slice(0, 10), copy.locale) }) : null;

/**
 * Page `page` of the list (policy-archive.ts), or null past its last page. The summaries are the record's,
 * in the default language: `languages` (the policy page's, policy-view.ts) says what they carry on a page in another.
 */
export function toVersionListView(schedule: Schedule, copy: VersionsCopy, page = 1, languages?: PolicyLanguages) {
  const pages = pageCount(schedule.versions.length);
  if (page > pages) return null;
  const first = (page - 1) * VERSIONS_PER_PAGE;
  const entries = schedule.versions.slice(first, first + VERSIONS_PER_PAGE).map((version) => {
    const current = version.date === schedule.current?.date;
    const { state, line } = standing(version, schedule, copy);
    return {
      date: version.date,
      dateText: formatDate(version.date, copy.locale),
      // The version in effect is the policy itself.
      href: current ? ROUTES.privacy : versionPath(version.date),
      current,
      upcoming: state === 'upcoming',
      inEffect: line,
      summary: version.summary || null,
      corrected: correctedText(version.correctedAt, copy),
    };
  });
  const pageText = withDates(copy.pageLabel, { page, pages });
  const link = (label: string, to: number) => (to >= 1 && to <= pages ? { label, href: versionsPagePath(to) } : null);
  return {
    meta: { title: clean(page === 1 ? copy.listHeading : `${copy.listHeading} (${pageText})`), description: clean(copy.listDescription) },
    path: versionsPagePath(page),
    langOf: { summaries: languages?.governing, words: languages?.versions },
    heading: copy.listHeading,
    intro: copy.listIntro,
    currentLabel: copy.currentLabel,
    upcomingLabel: copy.upcomingLabel,
    feedLink: { label: copy.feedLink, href: ROUTES.feed },
    entries,
    pages: pages > 1 ? { text: pageText, newer: link(copy.newerLink, page - 1), older: link(copy.olderLink, page + 1) } : null,
  };
}

/** A version other than the one in effect, in full, with the notice of how it stands: earlier, announced or withdrawn. */
export function toVersionView(
  version: ReturnType<typeof readerText<Version>>,
  hasPrevious: boolean,
  schedule: Schedule,
  policy: PrivacyPolicyView,
  settings: SettingsResult,
  earlier: string | null,
) {
  const copy = policy.versions;
  const date = version.date!;
  const stands = standing({ date, withdrawnAt: version.withdrawnAt }, schedule, copy);
  const dateText = formatDate(date, copy.locale);
  const notice =
    stands.state === 'withdrawn'
      ? stands.line
      : stands.state === 'upcoming'
        ? withDates(copy.notYetNotice, { date: dateText })
        : withDates(copy.notice, { from: formatDate(stands.from, copy.locale), to: stands.to ? formatDate(stands.to, copy.locale) : '' });
  const governing = textLanguage(version, policy.langOf.governing);
  return {
    meta: { title: clean(withDates(copy.versionTitle, { date: dateText })), description: clean(copy.listDescription) },
    // The record's text is in one language; the page's words are the policy document's.
    langOf: { ...policy.langOf, title: governing, summary: governing, sections: governing } satisfies PolicyLanguages,
    title: text(version.title),
    lastUpdated: { label: policy.lastUpdated?.label ?? '', dateTime: date, text: dateText },
    notice,
    currentLink: { label: copy.currentLink, href: ROUTES.privacy },
    corrected: correctedText(version.correctedAt, copy),
    summary: version.summary ? { label: copy.summaryLabel, text: version.summary } : null,
    versionsLink: policy.versionsLink,
    changesLink: hasPrevious ? { label: copy.changesLink, href: changesPath(date) } : null,
    sections: policySections(version.sections, settings),
    ...languageLines(version, copy, earlier),
  };
}

/**
 * What changed from the version before: its sections, each unchanged, changed word by word, added or
 * removed. In the reader's language when both versions have it (readerText); otherwise both in the default,
 * `pending` when the reader's was wanted (comparedTexts). `languages`: the policy page's (views.ts).
 */
export function toChangesView(
  version: Pick<Version, 'date' | 'summary' | 'sections'> & { pending: boolean },
  previous: Pick<Previous, 'date' | 'sections'>,
  isCurrent: boolean,
  copy: VersionsCopy,
  settings: SettingsResult,
  languages?: PolicyLanguages,
) {
  const date = version.date!;
  const plain = (sections: Version['sections']) =>
    policySections(sections, settings).map(({ _key, heading, body }) => ({ _key, heading, body }));
  const heading = withDates(copy.changesHeading, { date: formatDate(date, copy.locale) });
  return {
    meta: { title: clean(heading), description: clean(copy.listDescription) },
    // The compared text's, and the page's own words'.
    langOf: { text: textLanguage(version, languages?.governing), words: languages?.versions },
    heading,
    intro: withDates(copy.changesIntro, { date: formatDate(previous.date!, copy.locale) }),
    versionLink: { label: formatDate(date, copy.locale), date, href: isCurrent ? ROUTES.privacy : versionPath(date) },
    versionsLink: { label: copy.earlierLink, href: ROUTES.versions },
    summary: version.summary ? { label: copy.summaryLabel, text: version.summary } : null,
    sections: diffSections(plain(previous.sections), plain(version.sections)),
    labels: {
      added: copy.addedSection,
      removed: copy.removedSection,
      unchanged: copy.unchangedSection,
      addedWords: copy.addedWords,
      removedWords: copy.removedWords,
    },
  };
}

export type VersionListView = NonNullable<ReturnType<typeof toVersionListView>>;
export type VersionView = ReturnType<typeof toVersionView>;
export type ChangesView = ReturnType<typeof toChangesView>;
