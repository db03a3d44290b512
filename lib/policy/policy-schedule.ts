/**
 * When each version of the privacy policy is in effect, and what a publish may announce. A
 * version takes effect at the start of its "Last updated" day in the site's time zone; published with a
 * later day, it is announced: readable at once, in effect on its day. A material change needs the notice
 * period (Site settings) between its announcement and its day. Publishing an earlier day than an
 * announced version withdraws it: it never takes effect, and stays readable, marked. Plain rules, no I/O:
 * the Studio's validation, the local lake, the webhook and the pages share them.
 */
import { POLICY_ID, recordPublish, versionsOf, type Doc, type PolicyVersion } from './policy-record';
import { addDays, dayIn, startOfDay, timeZoneOf } from '@/lib/shared/site-time';

/** The notice period when Site settings give none, as GitHub's: 30 days. */
export const DEFAULT_NOTICE_DAYS = 30;
/** How far ahead a version may be dated: the versions' pages answer no further (policy-archive.ts). */
export const MAX_DAYS_AHEAD = 366;

/** The moment a rule is applied at, and the settings it reads. */
export type PolicyClock = { now: number; timeZone: string; noticeDays: number };

/** The clock of `settings` (a Site settings document, or what a query read of it) at `now`. */
export function policyClock(settings: Readonly<Record<string, unknown>> | null | undefined, now = Date.now()): PolicyClock {
  const days = settings?.noticePeriodDays;
  return {
    now,
    timeZone: timeZoneOf(settings?.timeZone),
    noticeDays: typeof days === 'number' && Number.isInteger(days) && days >= 0 ? days : DEFAULT_NOTICE_DAYS,
  };
}

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

/** Why `policy` (a published privacy policy) cannot be published over `record` now, if it cannot. */
export function scheduleProblem(policy: Doc, record: readonly Dated[], clock: PolicyClock): string | undefined {
  const date = policy.lastUpdated;
  if (typeof date !== 'string') return undefined;
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
  if (date >= earliest) return undefined;
  const days = `${clock.noticeDays} ${clock.noticeDays === 1 ? 'day' : 'days'}`;
  return `A material change takes effect at least ${days} after it is announced (${announced}): the earliest "Last updated" date is ${earliest}.`;
}

/**
 * Why publishing `policy` now is refused, if it is: the rules above, for a publish that would write to the
 * record. One that would not (its version recorded as it is) passes, though settings changed since.
 */
export function publishProblem(policy: Doc, record: readonly PolicyVersion[], clock: PolicyClock): string | undefined {
  return recordWrites(record, policy, clock).length > 0 ? scheduleProblem(policy, record, clock) : undefined;
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

/** The settings and record as a document list holds them (a dataset file, a transaction), for the rules above. */
export function scheduleOf(documents: readonly Doc[], now = Date.now()) {
  return {
    policy: documents.find((doc) => doc._id === POLICY_ID),
    record: versionsOf(documents),
    clock: policyClock(
      documents.find((doc) => doc._id === 'siteSettings'),
      now,
    ),
  };
}
