/**
 * What a visitor may ask of the policy's versions, as plain rules the pages and the tests
 * share: which version a date names, when each was in effect, and how much of a long record the list
 * shows in full. No I/O: the pages pass in the record's dates, newest first, and today's date.
 */

/** A date in the record's form, YYYY-MM-DD. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written as YYYY-MM-DD (not 2026-02-30, not a path's `..` nor 5 KB of anything). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The first day a version of the policy may have, and how far ahead of today one may be published. */
const FIRST_POSSIBLE_DAY = '2020-01-01';
const DAYS_AHEAD = 366;

/**
 * Whether a version's page may be asked for `value` at all: a calendar day from FIRST_POSSIBLE_DAY to a
 * year after `now`. What passes, the page answers (versionAt); what does not is a 404 before any render,
 * so that the days a visitor can make the site render, and Next keep, are a few thousand, not endless.
 */
export function mayNameVersion(value: string, now: Date): boolean {
  const latest = new Date(now.getTime() + DAYS_AHEAD * 86_400_000).toISOString().slice(0, 10);
  return isCalendarDate(value) && value >= FIRST_POSSIBLE_DAY && value <= latest;
}

/** What /privacy/versions/<date> answers. */
export type VersionAt =
  { kind: 'current' } | { kind: 'version'; date: string } | { kind: 'in-effect'; date: string } | { kind: 'not-found' };

/** The record's dates, newest first, as the pages read it: which are withdrawn, which is in effect today. */
export type RecordDates = {
  today: string;
  versions: readonly { date: string; withdrawnAt?: string | null }[];
  current?: { date: string };
};

/** The dates of the versions that were not withdrawn, newest first. */
export const liveDates = ({ versions }: RecordDates) => versions.filter((version) => !version.withdrawnAt).map(({ date }) => date);

/**
 * The version in effect today is /privacy itself; any other version's own date shows it (an earlier one,
 * one announced for later, one withdrawn); any other day from the first version to today names the version
 * in effect that day; anything else (before the first version, after today, not a calendar date) names nothing.
 */
export function versionAt(value: string, record: RecordDates): VersionAt {
  const { today, versions, current } = record;
  if (value === current?.date) return { kind: 'current' };
  if (versions.some(({ date }) => date === value)) return { kind: 'version', date: value };
  const live = liveDates(record);
  const oldest = live.at(-1);
  if (!isCalendarDate(value) || oldest === undefined || value < oldest || value > today) return { kind: 'not-found' };
  const inEffect = live.find((date) => date <= value)!;
  return inEffect === current?.date ? { kind: 'current' } : { kind: 'in-effect', date: inEffect };
}

/** When a version was in effect: from its date until the next version's, or still (`to` null). */
export type InEffect = { from: string; to: string | null };

export function inEffect(date: string, dates: readonly string[]): InEffect {
  const index = dates.indexOf(date);
  return { from: date, to: index > 0 ? dates[index - 1]! : null };
}

/**
 * How many versions one page of the list shows, newest first: /privacy/versions the first, then
 * /privacy/versions/page/2 and on, so a record of hundreds keeps each page within its budget.
 */
export const VERSIONS_PER_PAGE = 20;

/** The number of pages a record of `count` versions is listed on (one, even when empty). */
export const pageCount = (count: number) => Math.max(1, Math.ceil(count / VERSIONS_PER_PAGE));

/**
 * Whether a list page may be asked for as `value` (from its path): 2 to 9999, written plainly. What passes,
 * the page answers (a number beyond the record's pages is a 404); the rest is a 404 before any render.
 */
export const mayNamePage = (value: string) => /^(?:[2-9]|[1-9]\d{1,3})$/.test(value);
