import 'server-only';

import { announcePolicyVersion, withdrawPolicyVersion } from '@/lib/mail/notices';

import { armPolicyClock } from './policy-clock';
import type { PolicyVersion } from './policy-record';
import { policyState, todayOf, type PolicyClock } from './policy-schedule';

/**
 * What follows the policy's record and the settings its rules read (issue 52), wherever they changed: the
 * local lake's commits (from its documents), the hosted webhook and the server's start (policy-facts.ts).
 * The clock is armed for the next version's day; each confirmed subscriber is told of a material version
 * announced (lib/mail/notices.ts, once per subscriber and version however often this runs), and the notices
 * of a version withdrawn before its day are not sent.
 */

/** What the followers act on. */
export type PolicyFacts = { record: PolicyVersion[]; clock: PolicyClock };

/** How long notices the store did not take wait before they are tried again (a new follow tries at once). */
const RETRY_MS = 60_000;

// One retry per process, whichever bundle follows: the latest facts win.
const KEY = Symbol.for('hallway.policyFollowRetry');
const retry = globalThis as typeof globalThis & { [KEY]?: NodeJS.Timeout };

/** The store's side: announce what is announced and material, withdraw what was withdrawn and has not come. */
async function tellSubscribers({ record, clock }: PolicyFacts): Promise<void> {
  const today = todayOf(clock);
  const { upcoming } = policyState(record, today);
  await Promise.all([
    ...upcoming
      .filter((version) => version.material)
      .map(({ date, summary, publishedAt }) => announcePolicyVersion({ date, summary: summary ?? null, announcedAt: publishedAt })),
    ...record.filter(({ date, withdrawnAt }) => withdrawnAt && date > today).map(({ date }) => withdrawPolicyVersion(date)),
  ]);
}

export async function followPolicy(facts: PolicyFacts): Promise<void> {
  armPolicyClock(facts.record, facts.clock);
  clearTimeout(retry[KEY]);
  try {
    await tellSubscribers(facts);
  } catch (error) {
    retry[KEY] = setTimeout(() => void followPolicy(facts).catch(() => undefined), RETRY_MS).unref();
    throw error;
  }
}
