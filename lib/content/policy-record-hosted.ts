import 'server-only';

import { createClient } from 'next-sanity';

import { sanityClientOptions, sanityConfig } from '@/lib/env/public';
import { sanityRecordToken } from '@/lib/env/server';

import { translationIn, versionsOf, type Doc, type PolicyVersion } from '@/lib/policy/policy-record';
import { mergeWrites, policyClock, publishProblem, recordWrites, translationWrites } from '@/lib/policy/policy-schedule';
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
  const { policy, record, settings, translations } = await client.fetch(POLICY_RECORD_QUERY);
  if (!policy) return 'not recorded: the policy is not published';
  const versions = versionsOf(record);
  // At the publish's own time, so that Sanity's retries of the webhook decide alike.
  const clock = policyClock(settings, Date.parse(policy._updatedAt));
  // Sanity published it already; the Studio's validation is what stops such a publish, and the pages
  // show the record, so a version refused here never reaches a visitor.
  const problem = publishProblem(policy, versions, clock, translations);
  if (problem) return `not recorded: ${problem}`;
  const own = recordWrites(versions, policy, clock, policy._updatedAt);
  // Sanity tells no more than that a policy was published: a translation is taken in when published since
  // its text was recorded, as of the later of its publish and the policy's, so that retries decide alike.
  const at = (doc: Doc) => [String(doc._updatedAt), policy._updatedAt].sort().at(-1)!;
  const translated = translationWrites(
    versions,
    own,
    translations,
    (doc, version) => String(doc._updatedAt) > (translationIn(version, doc.language)?.recordedAt ?? ''),
    at,
  );
  const writes = mergeWrites(own, translated);
  if (writes.length === 0) return 'already recorded';
  const transaction = client.transaction();
  for (const version of writes) {
    const current = versions.find(({ _id }) => _id === version._id);
    // Only over the revision read: a concurrent write makes Sanity refuse this one, and the retry reads it.
    if (current) transaction.patch(version._id, patchOf(version, current));
    else transaction.createIfNotExists(version);
  }
  await transaction.commit();
  return [
    ...own.map((version) => `${describe(version, versions)} ${version.date}`),
    ...translated.flatMap((version) => newTexts(version, versions).map((language) => `recorded the ${language} text of ${version.date}`)),
  ].join(', ');
}

/** The languages whose text `version` records anew, against the record read. */
const newTexts = (version: PolicyVersion, before: readonly PolicyVersion[]) => {
  const was = before.find(({ _id }) => _id === version._id);
  return (version.translations ?? [])
    .filter((text) => translationIn(was ?? {}, text.language)?.recordedAt !== text.recordedAt)
    .map(({ language }) => language);
};

/** The patch that turns `current` into `version`, only over the revision read. */
function patchOf(version: PolicyVersion, current: PolicyVersion) {
  const { _id, _type, _rev, ...fields } = version;
  const unset = (['summary', 'material', 'translations'] as const).filter((field) => version[field] === undefined);
  return { ifRevisionID: current._rev ?? '', unset, set: fields };
}

const describe = (version: PolicyVersion, before: readonly PolicyVersion[]) =>
  version.withdrawnAt ? 'withdrew' : before.some(({ _id }) => _id === version._id) ? 'corrected' : 'added';
