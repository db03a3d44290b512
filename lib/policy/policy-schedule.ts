/**
 * When each version of the privacy policy is in effect, and what a publish may announce. A
 * version takes effect at the start of its "Last updated" day in the site's time zone; published with a
 * later day, it is announced: readable at once, in effect on its day. A material change needs the notice
 * period (Site settings) between its announcement and its day. Publishing an earlier day than an
 * announced version withdraws it: it never takes effect, and stays readable, marked. Plain rules, no I/O:
 * the Studio's validation, the local lake, the webhook and the pages share them.
 */
import { isTranslation, POLICY_ID, recordPublish, recordTranslation, versionsOf, type Doc, type PolicyVersion } from './policy-record';
import { toSiteLanguages } from '@/lib/shared/languages';
import { addDays, dayIn, startOfDay, timeZoneOf } from '@/lib/shared/site-time';

/** The notice period when Site settings give none, as GitHub's: 30 days. */
export const DEFAULT_NOTICE_DAYS = 30;
/** How far ahead a version may be dated: the versions' pages answer no further (policy-archive.ts). */
export const MAX_DAYS_AHEAD = 366;

/**
 * The moment a rule is applied at, and the settings it reads. `translatedInto`: the languages besides the
 * default whose text a material change needs before it is announced, unless `announceAlone` allows it.
 */
export type PolicyClock = { now: number; timeZone: string; noticeDays: number; translatedInto: string[]; announceAlone: boolean };

/** The clock of `settings` (a Site settings document, or what a query read of it) at `now`. */
export function policyClock(settings: Readonly<Record<string, unknown>> | null | undefined, now = Date.now()): PolicyClock {
  const days = settings?.noticePeriodDays;
  const site = toSiteLanguages(settings as Parameters<typeof toSiteLanguages>[0]);
  return {
    now,
    timeZone: timeZoneOf(settings?.timeZone),
    noticeDays: typeof days === 'number' && Number.isInteger(days) && days >= 0 ? days : DEFAULT_NOTICE_DAYS,
    translatedInto: site.languages.map(({ tag }) => tag).filter((tag) => tag !== site.defaultLanguage),
    announceAlone: settings?.announceBeforeTranslations === true,
  };
}

/** The languages of `clock` that no published translation in `translations` gives a text dated `date`. */
export const untranslated = (date: string, clock: PolicyClock, translations: readonly Doc[]) =>
  clock.translatedInto.filter((tag) => !translations.some((doc) => isTranslation(doc) && doc.language === tag && doc.lastUpdated === date));

export const todayOf = (clock: PolicyClock) => dayIn(clock.now, clock.timeZone);

const HOUR_S = 3600;

/**
 * How long what the pages show of the record stays true at `now`: until the next of `days` begins (a
 * version takes effect), at most an hour (the days the versions' pages name), at least a second. The
 * pages' lifetime, so a cache in front (s-maxage) asks again by then; the policy clock (policy-clock.ts)
 * refreshes this server's own pages at that moment.
 */
export function secondsTrue(days: readonly string[], timeZone: string, now: number): number {
  const today = dayIn(now, timeZone);
  const next = days.filter((day) => day > today).sort()[0];
  const until = next === undefined ? HOUR_S : (startOfDay(next, timeZone) - now) / 1000;
  return Math.max(1, Math.min(HOUR_S, Math.ceil(until)));
}

/** A version's part of the record, as far as these rules read it. */
type Dated = Pick<PolicyVersion, 'date' | 'publishedAt'> & { withdrawnAt?: string | null };

const live = <V extends Dated>(record: readonly V[]) => record.filter((version) => !version.withdrawnAt);

/** The version in effect on `today` (none before the first), and those announced for later, soonest first. */
export function policyState<V extends Dated>(record: readonly V[], today: string): { current: V | undefined; upcoming: V[] } {
  const versions = live(record).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return { current: versions.find(({ date }) => date <= today), upcoming: versions.filter(({ date }) => date > today).reverse() };
}

/**
 * Why `policy` (a published privacy policy) cannot be published over `record` now, if it cannot.
 * `translations`: the translations published with it or before. A translation is never refused here:
 * dated like no version yet, it waits for one.
 */
export function scheduleProblem(
  policy: Doc,
  record: readonly Dated[],
  clock: PolicyClock,
  translations: readonly Doc[] = [],
): string | undefined {
  const date = policy.lastUpdated;
  if (typeof date !== 'string' || isTranslation(policy)) return undefined;
  const today = todayOf(clock);
  const latest = addDays(today, MAX_DAYS_AHEAD);
  if (date > latest) return `"Last updated" is ${date}, more than a year ahead: the latest it may be is ${latest}.`;
  const same = record.find((version) => version.date === date);
  if (same?.withdrawnAt) return `The version of ${date} was withdrawn before it took effect. A new version needs another date.`;
  const { current } = policyState(record, today);
  if (current && date < current.date)
    return `"Last updated" is ${date}, earlier than the current version of the policy (${current.date}). A new version needs a later date; to correct the current version, keep its date.`;
  if (policy.materialChange !== true) return undefined;
  const announced = same ? dayIn(Date.parse(same.publishedAt), clock.timeZone) : today;
  const earliest = addDays(announced, clock.noticeDays);
  if (date < earliest) {
    const days = `${clock.noticeDays} ${clock.noticeDays === 1 ? 'day' : 'days'}`;
    return `A material change takes effect at least ${days} after it is announced (${announced}): the earliest "Last updated" date is ${earliest}.`;
  }
  // One notice period for every language: the announcement waits for each language's text.
  const missing = same || clock.announceAlone ? [] : untranslated(date, clock, translations);
  if (missing.length === 0) return undefined;
  return `A material change is announced in every language at once, and ${missing.join(', ')} has no text dated ${date} yet. Publish each translation with this date first, or all of them in one release (Site settings can allow announcing before).`;
}

/**
 * Why publishing `policy` now is refused, if it is: the rules above, for a publish that would write to the
 * record. One that would not (its version recorded as it is) passes, though settings changed since.
 */
export function publishProblem(
  policy: Doc,
  record: readonly PolicyVersion[],
  clock: PolicyClock,
  translations: readonly Doc[] = [],
): string | undefined {
  return recordWrites(record, policy, clock).length > 0 ? scheduleProblem(policy, record, clock, translations) : undefined;
}

/**
 * What a publish of `policy` writes to the record, once scheduleProblem found nothing: its version (new,
 * or corrected under the same date), and the withdrawal of each announced version dated after it. `at`:
 * the publish's time as its source writes it (a transaction's, to the microsecond).
 */
export function recordWrites(
  record: readonly PolicyVersion[],
  policy: Doc,
  clock: PolicyClock,
  at = new Date(clock.now).toISOString(),
): PolicyVersion[] {
  const date = policy.lastUpdated;
  if (typeof date !== 'string') return [];
  const version = recordPublish(live(record), policy, at);
  const withdrawn = policyState(record, todayOf(clock))
    .upcoming.filter((upcoming) => upcoming.date > date)
    .map((upcoming): PolicyVersion => ({ ...upcoming, withdrawnAt: at }));
  return [...(version ? [version] : []), ...withdrawn];
}

/** `record` with `writes` in place of the versions they rewrite, newest first. */
export const withWrites = (record: readonly PolicyVersion[], writes: readonly PolicyVersion[]) =>
  versionsOf([...record.filter(({ _id }) => !writes.some((write) => write._id === _id)), ...writes]);

/**
 * What a publish writes of the translations, once `writes` (recordWrites') are in `record`: each published
 * translation dated like a version not withdrawn becomes that version's text in its language, when this
 * publish is its own (`published`) or made its version, recorded at `at`. A translation not published again
 * is left as recorded, so a correction of the default text leaves it out of date until it is.
 */
export function translationWrites(
  record: readonly PolicyVersion[],
  writes: readonly PolicyVersion[],
  translations: readonly Doc[],
  published: (translation: Doc & { language: string }, version: PolicyVersion) => boolean,
  at: (translation: Doc) => string,
): PolicyVersion[] {
  const made = new Set(writes.filter(({ _id }) => !record.some((version) => version._id === _id)).map(({ _id }) => _id));
  const versions = new Map(withWrites(record, writes).map((version) => [version.date, version]));
  const changed = new Map<string, PolicyVersion>();
  for (const doc of translations.filter(isTranslation)) {
    const version = changed.get(doc.lastUpdated) ?? versions.get(doc.lastUpdated);
    if (!version || version.withdrawnAt || !(made.has(version._id) || published(doc, version))) continue;
    const next = recordTranslation(version, doc, at(doc));
    if (next) changed.set(version.date, next);
  }
  return [...changed.values()];
}

/** `writes`, then `later` (which rewrite some of the same versions further), each version once. */
export const mergeWrites = (writes: readonly PolicyVersion[], later: readonly PolicyVersion[]) => [
  ...writes.filter(({ _id }) => !later.some((version) => version._id === _id)),
  ...later,
];

/** The settings and record as a document list holds them (a dataset file, a transaction), for the rules above. */
export function scheduleOf(documents: readonly Doc[], now = Date.now()) {
  return {
    translations: documents.filter(isTranslation),
    policy: documents.find((doc) => doc._id === POLICY_ID),
    record: versionsOf(documents),
    clock: policyClock(
      documents.find((doc) => doc._id === 'siteSettings'),
      now,
    ),
  };
}
