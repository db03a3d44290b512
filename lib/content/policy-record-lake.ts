import 'server-only';

import { lakeError } from '@/lib/content-lake/errors';
import type { TransactionBuilder } from '@/lib/content-lake/transaction';

import {
  earlierDateProblem,
  isRecordId,
  POLICY_ID,
  recordPublish,
  versionId,
  versionsOf,
  type Doc,
  type PolicyVersion,
} from './policy-record';

/**
 * How the embedded default's lake keeps the policy's record (policy-record.ts): in the same transaction as
 * every publish, whichever way it came (the Studio's Publish, a release at its time, a hand edit of the
 * file taken in), so that no crash can leave a publish without its version. Only the lake writes it.
 */

const RECORD_IS_READ_ONLY = "The record of the privacy policy's versions is kept by the site and cannot be edited";

/** The record as transaction `tx` sees it, newest first. */
export const recordOf = (tx: TransactionBuilder) => versionsOf(tx.idsStartingWith(versionId('')).map((id) => tx.get(id)!));

/** Dataset option `amend`: refuses any other write to the record, then records the published policy. */
export function amendRecord(tx: TransactionBuilder): void {
  const forged = tx.changes().find(({ id }) => isRecordId(id));
  if (forged) throw lakeError(403, 'permissionDenied', `${RECORD_IS_READ_ONLY} ("${forged.id}").`);
  const policy = tx.get(POLICY_ID);
  if (!policy) return;
  const record = recordOf(tx);
  // Raw mutations skip the publish check; a policy they date too early is refused here all the same.
  const [problem] = tx.changes().some(({ id }) => id === POLICY_ID) ? recordProblems(policy, record) : [];
  if (problem) throw lakeError(409, 'validationError', `"${POLICY_ID}" cannot be published: ${problem}`);
  const version = recordPublish(record, policy, tx.now);
  if (version) tx.put(version._id, version);
}

/** The publish check's part: a policy dated before the record's newest version is refused, with the reason. */
export function recordProblems(doc: Doc, record: readonly PolicyVersion[]): string[] {
  const problem = doc._type === POLICY_ID ? earlierDateProblem(doc.lastUpdated, record[0]?.date) : undefined;
  return problem ? [problem] : [];
}

/** The same, for a whole file edited by hand: its own policy against its own record. */
export function fileRecordProblems(documents: readonly Doc[]): string[] {
  const policy = documents.find((doc) => doc._id === POLICY_ID);
  return policy ? recordProblems(policy, versionsOf(documents)).map((problem) => `${POLICY_ID}: ${problem}`) : [];
}
