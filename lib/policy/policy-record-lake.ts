import 'server-only';

import { isPublishedId } from '@school-site/content-lake';
import { lakeError } from '@school-site/content-lake';
import type { TransactionBuilder } from '@school-site/content-lake';

import { plainTextProblems } from '@/lib/shared/plain-text';
import { isRecordId, isTranslation, POLICY_ID, translationIn, versionId, versionsOf, type Doc } from './policy-record';
import { mergeWrites, policyClock, publishProblem, recordWrites, scheduleOf, translationWrites } from './policy-schedule';

/**
 * How the embedded default's lake keeps the policy's record (policy-record.ts): in the same transaction as
 * every publish, whichever way it came (the Studio's Publish, a release at its time, a hand edit of the
 * file taken in), so that no crash can leave a publish without its version. Only the lake writes it.
 */

const RECORD_IS_READ_ONLY = "The record of the privacy policy's versions is kept by the site and cannot be edited";

/** The record as transaction `tx` sees it, newest first. */
export const recordOf = (tx: TransactionBuilder) => versionsOf(tx.idsStartingWith(versionId('')).map((id) => tx.get(id)!));

/** The published translations of the policy as transaction `tx` sees them; with `releases`, those in any release too. */
const translationsOf = (tx: TransactionBuilder, releases = false) =>
  tx
    .idsStartingWith('')
    .filter((id) => isPublishedId(id) || (releases && id.startsWith('versions.')))
    .map((id) => tx.get(id) as Doc)
    .filter(isTranslation);

/** The rules' clock as transaction `tx` sees the settings, at its own time. */
const clockOf = (tx: TransactionBuilder) => policyClock(tx.get('siteSettings'), Date.parse(tx.now));

/**
 * Dataset option `amend`: refuses any other write to the record, and text the rule refuses in a published
 * document (plain-text.ts: raw mutations skip the publish check), then records the published policy.
 */
export function amendRecord(tx: TransactionBuilder): void {
  const changes = tx.changes();
  const forged = changes.find(({ id }) => isRecordId(id));
  if (forged) throw lakeError(403, 'permissionDenied', `${RECORD_IS_READ_ONLY} ("${forged.id}").`);
  for (const { id, before, after } of changes) {
    const [unplain] = after && isPublishedId(id) ? plainTextProblems(after, before) : [];
    if (unplain) throw lakeError(409, 'validationError', `"${id}" cannot be published: ${unplain.message}`);
  }
  const policy = tx.get(POLICY_ID);
  if (!policy) return;
  const record = recordOf(tx);
  const clock = clockOf(tx);
  // Raw mutations skip the publish check; a policy they date too early is refused here all the same.
  const [problem] = changes.some(({ id }) => id === POLICY_ID) ? recordProblems(policy, tx) : [];
  if (problem) throw lakeError(409, 'validationError', `"${POLICY_ID}" cannot be published: ${problem}`);
  const writes = recordWrites(record, policy, clock, tx.now);
  // A commit with no changes is the record following the file (at start, after a hand edit): it takes in
  // what the file's translations hold that the record lacks.
  const translated = changes.length === 0 || changes.some(({ id, after }) => isPublishedId(id) && isTranslation(after as Doc | undefined));
  const later =
    writes.length > 0 || translated
      ? translationWrites(
          record,
          writes,
          translationsOf(tx),
          (doc, version) => changes.some(({ id }) => id === doc._id) || !translationIn(version, doc.language),
          () => tx.now,
        )
      : [];
  for (const version of mergeWrites(writes, later)) tx.put(version._id, version);
}

/**
 * The publish check's part: the policy's date against the record and the notice period (policy-schedule.ts),
 * with the reason. A release publishes its translations with the policy, in an order of its own: its
 * documents count as published here, and amendRecord checks the transaction as it ends.
 */
export function recordProblems(doc: Doc, tx: TransactionBuilder, releases = false): string[] {
  const problem = doc._type === POLICY_ID ? publishProblem(doc, recordOf(tx), clockOf(tx), translationsOf(tx, releases)) : undefined;
  return problem ? [problem] : [];
}

/** The same, for a whole file edited by hand: its own policy against its own record and settings, now. */
export function fileRecordProblems(documents: readonly Doc[]): string[] {
  const { policy, record, clock, translations } = scheduleOf(documents);
  const problem = policy && publishProblem(policy, record, clock, translations);
  return problem ? [`${POLICY_ID}: ${problem}`] : [];
}
