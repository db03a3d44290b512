import 'server-only';

import { expireTags } from '@/lib/cache/tag-expiry';
import { announcePolicyVersion, withdrawPolicyVersion } from '@/lib/store/notices';

import { armPolicyClock } from './policy-clock';
import type { PolicyVersion } from './policy-record';
import { policyState, todayOf, type PolicyClock } from './policy-schedule';
import { ANNOUNCEMENTS_TAG } from './announced-dates';

/**
 * What follows the policy's record and the settings its rules read, wherever they changed: the
 * local lake's commits (from its documents), the hosted webhook and the server's start (read-policy.ts).
 * The clock is armed for the next version's day; each confirmed subscriber is told of a material version
 * announced (lib/store/notices.ts, once per subscriber and version however often this runs), and the notices
 * of a version withdrawn before its day are not sent.
 */

/** What the followers act on. */
export type FollowedPolicy = { record: PolicyVersion[]; clock: PolicyClock };

/**
 * How long notices the store did not take wait before they are tried again (a new follow tries at once):
 * a minute, doubling to an hour while they keep failing, so that a lasting cause is said at most once an
 * hour, and a passing one heals within a minute.
 */
const RETRY_FIRST_MS = 60_000;
const RETRY_MAX_MS = 3_600_000;

// One retry per process, whichever bundle follows: the latest facts win.
const KEY = Symbol.for('hallway.policyFollowRetry');
const retry = globalThis as typeof globalThis & { [KEY]?: NodeJS.Timeout };

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The store's side: announce what is announced and material, withdraw what was withdrawn and has not come.
 * Each version on its own: one the store refuses keeps no other from being told. Resolves with what failed.
 */
async function tellSubscribers({ record, clock }: FollowedPolicy): Promise<string[]> {
  const today = todayOf(clock);
  const { upcoming } = policyState(record, today);
  const work = [
    ...upcoming
      .filter((version) => version.material)
      .map(({ date, summary, publishedAt }) => ({
        what: `announcing ${date}`,
        done: announcePolicyVersion({ date, summary: summary ?? null, announcedAt: publishedAt }),
      })),
    ...record
      .filter(({ date, withdrawnAt }) => withdrawnAt && date > today)
      .map(({ date }) => ({ what: `withdrawing ${date}`, done: withdrawPolicyVersion(date) })),
  ];
  const results = await Promise.allSettled(work.map(({ done }) => done));
  // The feed says "announced" only of what the store recorded: it reads the store again.
  if (results.some(({ status }) => status === 'fulfilled'))
    await expireTags([ANNOUNCEMENTS_TAG]).catch((error: unknown) =>
      console.error(`the feed's announcements were not refreshed: ${reason(error)}`),
    );
  return results.flatMap((result, index) => (result.status === 'rejected' ? [`${work[index]!.what}: ${reason(result.reason)}`] : []));
}

/**
 * Arms the clock and tells the subscribers. Rejects, naming each version that failed and why, when the
 * store did not take all of it; it is then tried again by itself (RETRY_FIRST_MS, doubling), and each
 * retry that fails says so in the log, with when the next one comes.
 */
export async function followPolicy(facts: FollowedPolicy, retryMs = RETRY_FIRST_MS): Promise<void> {
  armPolicyClock(facts.record, facts.clock);
  clearTimeout(retry[KEY]);
  const failed = await tellSubscribers(facts);
  if (failed.length === 0) return;
  const next = Math.min(retryMs * 2, RETRY_MAX_MS);
  retry[KEY] = setTimeout(
    () => void followPolicy(facts, next).catch((error: unknown) => console.error(`policy notices, tried again: ${reason(error)}`)),
    retryMs,
  ).unref();
  throw new Error(`the policy's notices were not all queued (${failed.join('; ')}); trying again in ${retryMs / 1000} s`);
}
