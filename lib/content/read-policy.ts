import 'server-only';

import { createSanityClient } from './client';
import type { FollowedPolicy } from '@/lib/policy/policy-follow';
import { versionsOf } from '@/lib/policy/policy-record';
import { policyClock } from '@/lib/policy/policy-schedule';
import { POLICY_RECORD_QUERY } from './queries';

/** How long a read of the record may take at start or after a webhook, before it is given up (and tried again). */
const READ_TIMEOUT_MS = 10_000;

/** The record and the settings as the site's one client reads them now: the local lake in process, or the project. */
export async function readFollowedPolicy(): Promise<FollowedPolicy> {
  const { record, settings } = await createSanityClient()
    .withConfig({ useCdn: false, perspective: 'published', timeout: READ_TIMEOUT_MS })
    .fetch(POLICY_RECORD_QUERY);
  return { record: versionsOf(record), clock: policyClock(settings) };
}
