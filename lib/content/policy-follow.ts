import 'server-only';

import { armPolicyClock } from './policy-clock';
import type { PolicyVersion } from './policy-record';
import type { PolicyClock } from './policy-schedule';

/**
 * What follows the policy's record and the settings its rules read (issue 52), wherever they changed: the
 * local lake's commits (from its documents), the hosted webhook and the server's start (policy-facts.ts).
 * The clock is armed for the next version's day; each confirmed subscriber is told of a material version
 * announced, and the notices of a withdrawn one are not sent.
 */

/** What the followers act on. */
export type PolicyFacts = { record: PolicyVersion[]; clock: PolicyClock };

export async function followPolicy({ record, clock }: PolicyFacts): Promise<void> {
  armPolicyClock(record, clock);
}
