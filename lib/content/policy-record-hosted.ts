import 'server-only';

import { createClient } from 'next-sanity';

import { sanityClientOptions, sanityConfig } from '@/lib/env/public';
import { sanityRecordToken } from '@/lib/env/server';

import { earlierDateProblem, recordPublish, versionsOf } from './policy-record';
import { POLICY_RECORD_QUERY } from './queries';

/** How long the webhook waits for hosted Sanity to read or write the record. */
const TIMEOUT_MS = 10_000;

/**
 * The record of the policy's versions on a hosted project (policy-record.ts): Sanity keeps no such rule,
 * so the publish webhook writes the version with the server's write token, after the publish. Run again
 * (Sanity retries a webhook), it finds the version written and writes nothing. Resolves with what was
 * done, for the webhook's answer and log; throws when Sanity cannot be read or written, so that the
 * webhook answers 503 and Sanity sends it again.
 */
export async function recordHostedPublish(): Promise<string> {
  const config = sanityConfig();
  const token = sanityRecordToken();
  if (!config || !token) return 'not recorded: SANITY_API_RECORD_TOKEN is not set';
  const client = createClient({ ...sanityClientOptions(config), token, useCdn: false, perspective: 'raw', timeout: TIMEOUT_MS });
  const { policy, record } = await client.fetch(POLICY_RECORD_QUERY);
  if (!policy) return 'not recorded: the policy is not published';
  const versions = versionsOf(record);
  // Sanity published it already; the Studio's validation is what stops such a publish.
  const problem = earlierDateProblem(policy.lastUpdated, versions[0]?.date);
  if (problem) return `not recorded: ${problem}`;
  const version = recordPublish(versions, policy, policy._updatedAt);
  if (!version) return 'already recorded';
  const current = versions.find(({ _id }) => _id === version._id);
  if (current) {
    // Only over the revision read: a concurrent write makes Sanity refuse this one, and the retry reads it.
    const { _id, _type, ...fields } = version;
    await client
      .patch(_id)
      .ifRevisionId(current._rev ?? '')
      .unset(version.summary === undefined ? ['summary'] : [])
      .set(fields)
      .commit();
    return `corrected ${version.date}`;
  }
  await client.createIfNotExists(version);
  return `added ${version.date}`;
}
