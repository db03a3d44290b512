import { changesPath, ROUTES, versionPath } from '@/lib/shared/public-pages';

import { withDates, type VersionsCopy } from './version-copy';
import { formatDate } from '@/lib/shared/view-fields';

/**
 * What readers see of a version announced ahead, until its day: the notice at the top of
 * /privacy and the one line every public page carries, which links to it. Server-rendered with the page:
 * no script, no cookie, nothing that moves once painted.
 */

/** The notice's id on /privacy, where the line on every page leads. */
export const UPCOMING_ID = 'upcoming';

type Announced = { date: string; summary?: string | null };

/** When it takes effect, its summary, and links to its text and (with a version in effect to compare with) what changes. */
export function toUpcomingView(version: Announced, copy: VersionsCopy, comparable: boolean) {
  return {
    id: UPCOMING_ID,
    text: withDates(copy.upcomingNotice, { date: formatDate(version.date, copy.locale) }),
    summary: version.summary ? { label: copy.summaryLabel, text: version.summary } : null,
    links: [
      { label: copy.upcomingLink, href: versionPath(version.date) },
      ...(comparable ? [{ label: copy.upcomingChangesLink, href: changesPath(version.date) }] : []),
    ],
  };
}

export type UpcomingView = ReturnType<typeof toUpcomingView>;

export function toSiteNoticeView(version: Announced, copy: VersionsCopy) {
  return {
    text: withDates(copy.siteNotice, { date: formatDate(version.date, copy.locale) }),
    link: { label: copy.siteNoticeLink, href: `${ROUTES.privacy}#${UPCOMING_ID}` },
  };
}

export type SiteNoticeView = ReturnType<typeof toSiteNoticeView>;
