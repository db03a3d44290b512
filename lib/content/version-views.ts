import { ROUTES, changesPath, versionPath, versionsPagePath } from '@/lib/public-pages';
import type { POLICY_VERSION_QUERY_RESULT, POLICY_VERSIONS_QUERY_RESULT } from '@/sanity.types';

import { inEffect, pageCount, VERSIONS_PER_PAGE } from './policy-archive';
import { diffSections } from './policy-diff';
import { withDates, type VersionsCopy } from './version-copy';
import { clean, text } from './view-fields';
import { formatDate, policySections, type PrivacyPolicyView, type SettingsResult } from './views';

/**
 * The views of the policy's versions pages (issue 40), made from the record (published, so free of
 * stega markers) and the policy's words for these pages (which carry them in draft mode).
 */

type Version = NonNullable<POLICY_VERSION_QUERY_RESULT['version']>;
type Previous = NonNullable<POLICY_VERSION_QUERY_RESULT['previous']>;

/** "In effect since …" for the current version, "In effect from … to …" for an earlier one. */
function inEffectText(date: string, dates: readonly string[], copy: VersionsCopy): string {
  const { from, to } = inEffect(date, dates);
  return to
    ? withDates(copy.inEffectRange, { from: formatDate(from), to: formatDate(to) })
    : withDates(copy.inEffectSince, { from: formatDate(from) });
}

const correctedText = (correctedAt: string | null, copy: VersionsCopy) =>
  correctedAt ? withDates(copy.correctedLabel, { date: formatDate(correctedAt.slice(0, 10)) }) : null;

/** The record's dates, newest first, as the rules in policy-archive.ts take them. */
export const datesOf = (list: POLICY_VERSIONS_QUERY_RESULT) => list.flatMap(({ date }) => (date ? [date] : []));

/** Page `page` of the list (policy-archive.ts), or null past its last page. */
export function toVersionListView(list: POLICY_VERSIONS_QUERY_RESULT, copy: VersionsCopy, page = 1) {
  const dates = datesOf(list);
  const pages = pageCount(dates.length);
  if (page > pages) return null;
  const first = (page - 1) * VERSIONS_PER_PAGE;
  const entries = dates.slice(first, first + VERSIONS_PER_PAGE).map((date, index) => {
    const { summary, correctedAt } = list.find((version) => version.date === date)!;
    const current = first + index === 0;
    return {
      date,
      dateText: formatDate(date),
      // The current version is the policy itself.
      href: current ? ROUTES.privacy : versionPath(date),
      current,
      inEffect: inEffectText(date, dates, copy),
      summary: summary || null,
      corrected: correctedText(correctedAt, copy),
    };
  });
  const pageText = withDates(copy.pageLabel, { page, pages });
  const link = (label: string, to: number) => (to >= 1 && to <= pages ? { label, href: versionsPagePath(to) } : null);
  return {
    meta: { title: clean(page === 1 ? copy.listHeading : `${copy.listHeading} (${pageText})`), description: clean(copy.listDescription) },
    path: versionsPagePath(page),
    heading: copy.listHeading,
    intro: copy.listIntro,
    currentLabel: copy.currentLabel,
    entries,
    pages: pages > 1 ? { text: pageText, newer: link(copy.newerLink, page - 1), older: link(copy.olderLink, page + 1) } : null,
  };
}

/** An earlier version in full, with the notice that it is not the current one. */
export function toVersionView(
  version: Version,
  hasPrevious: boolean,
  dates: readonly string[],
  policy: PrivacyPolicyView,
  settings: SettingsResult,
) {
  const copy = policy.versions;
  const date = version.date!;
  const { from, to } = inEffect(date, dates);
  const dateText = formatDate(date);
  return {
    meta: { title: clean(withDates(copy.versionTitle, { date: dateText })), description: clean(copy.listDescription) },
    title: text(version.title),
    lastUpdated: { label: policy.lastUpdated?.label ?? '', dateTime: date, text: dateText },
    notice: withDates(copy.notice, { from: formatDate(from), to: to ? formatDate(to) : '' }),
    currentLink: { label: copy.currentLink, href: ROUTES.privacy },
    corrected: correctedText(version.correctedAt, copy),
    summary: version.summary ? { label: copy.summaryLabel, text: version.summary } : null,
    versionsLink: policy.versionsLink,
    changesLink: hasPrevious ? { label: copy.changesLink, href: changesPath(date) } : null,
    sections: policySections(version.sections, settings),
  };
}

/** What changed from the version before: its sections, each unchanged, changed word by word, added or removed. */
export function toChangesView(version: Version, previous: Previous, isCurrent: boolean, copy: VersionsCopy, settings: SettingsResult) {
  const date = version.date!;
  const plain = (sections: Version['sections']) =>
    policySections(sections, settings).map(({ _key, heading, body }) => ({ _key, heading, body }));
  const heading = withDates(copy.changesHeading, { date: formatDate(date) });
  return {
    meta: { title: clean(heading), description: clean(copy.listDescription) },
    heading,
    intro: withDates(copy.changesIntro, { date: formatDate(previous.date!) }),
    versionLink: { label: formatDate(date), date, href: isCurrent ? ROUTES.privacy : versionPath(date) },
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
