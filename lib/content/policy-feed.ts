import { localizeHref, pathPrefix } from '@/lib/shared/languages';
import { changesPath, ROUTES, versionPath } from '@/lib/shared/public-pages';

import type { Schedule } from './version-views';
import { withDates, type VersionsCopy } from '@/lib/policy/version-copy';
import { clean, formatDate } from '@/lib/shared/view-fields';
import { startOfDay } from '@/lib/shared/site-time';

/**
 * The Atom feed of the policy's record (RFC 4287), for the people and tools that watch policies (Open
 * Terms Archive publishes one per policy): an entry when a version is announced ahead, when a version
 * takes effect, and when an announced one is withdrawn; newest first, the newest FEED_ENTRIES of them.
 */

export const FEED_ENTRIES = 50;

type Entry = { id: string; title: string; at: string; href: string; summary: string | null };

/**
 * Every character XML 1.0 does not allow (controls but tab and line breaks, U+FFFE and U+FFFF, a surrogate
 * alone): text published before the editors' rule (plain-text.ts) may hold them, and one would make the
 * whole feed unreadable. With the u flag a surrogate pair is one character, and allowed.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const escape = (value: string) =>
  value
    .replace(NOT_XML, '')
    .replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);

/**
 * Each version's entries: announced (published before its day; a material one only once the store has
 * recorded the announcement that tells the subscribers, `announced`), in effect (its day has come), withdrawn.
 */
function entriesOf(schedule: Schedule, copy: VersionsCopy, announced: ReadonlySet<string>): Entry[] {
  return schedule.versions.flatMap(({ date, publishedAt, withdrawnAt, summary, material }) => {
    const begins = new Date(startOfDay(date, schedule.timeZone)).toISOString();
    const day = formatDate(date, copy.locale);
    const entry = (kind: string, title: string, at: string, href = versionPath(date)) => ({
      id: `${date}/${kind}`,
      title,
      at,
      href,
      summary,
    });
    return [
      ...(publishedAt < begins && (!material || announced.has(date))
        ? [entry('announced', withDates(copy.feedAnnounced, { date: day }), publishedAt, changesPath(date))]
        : []),
      ...(withdrawnAt ? [entry('withdrawn', withDates(copy.feedWithdrawn, { date: day }), withdrawnAt)] : []),
      ...(!withdrawnAt && date <= schedule.today
        ? [entry('in-effect', withDates(copy.feedInEffect, { date: day }), publishedAt > begins ? publishedAt : begins)]
        : []),
    ];
  });
}

/**
 * `site`, the site's address (NEXT_PUBLIC_SITE_URL); `language`, the tag of the feed's pages and the site's
 * default; `author`, the product's name; `announced`, the days of the versions whose announcement is recorded.
 */
type FeedOptions = { site: string; language: { tag: string; defaultLanguage: string }; author: string; announced: ReadonlySet<string> };

/**
 * The feed's XML, its links absolute and to its language's pages, its ids stable across renders. It says
 * the language of its words (xml:lang), so that a reader or a screen reader picks the right one; the
 * summaries are the record's own text, in the default language, and say so where that is another.
 */
export function toPolicyFeed(schedule: Schedule, copy: VersionsCopy, { site, language, author, announced }: FeedOptions): string {
  const url = (path: string) => new URL(localizeHref(path, pathPrefix(language.tag, language)), site).href;
  const entries = entriesOf(schedule, copy, announced)
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, FEED_ENTRIES);
  const updated = entries[0]?.at ?? new Date(0).toISOString();
  const summaryLang = language.defaultLanguage === copy.locale ? '' : ` xml:lang="${escape(language.defaultLanguage)}"`;
  const xml = (entry: Entry) =>
    [
      '<entry>',
      `<id>${escape(url(`${ROUTES.feed}#${entry.id}`))}</id>`,
      `<title>${escape(clean(entry.title))}</title>`,
      `<updated>${entry.at}</updated>`,
      `<link rel="alternate" type="text/html" href="${escape(url(entry.href))}"/>`,
      entry.summary ? `<summary${summaryLang}>${escape(entry.summary)}</summary>` : '',
      '</entry>',
    ].join('');
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escape(copy.locale)}">`,
    `<id>${escape(url(ROUTES.feed))}</id>`,
    `<title>${escape(clean(copy.feedTitle))}</title>`,
    `<updated>${updated}</updated>`,
    `<author><name>${escape(clean(author))}</name></author>`,
    `<link rel="self" type="application/atom+xml" href="${escape(url(ROUTES.feed))}"/>`,
    `<link rel="alternate" type="text/html" href="${escape(url(ROUTES.versions))}"/>`,
    ...entries.map(xml),
    '</feed>',
    '',
  ].join('\n');
}
