/**
 * The eight `sanity.action.release.*` actions of the Actions API, as Studio 5.31.2 sends them
 * (../shared/STUDIO-HISTORY.md §2, "Actions sent by the Studio" and "What the server must do"). Each checks
 * the release's state and its input, then changes the release (and its versions) in the action's
 * transaction; what a release is, its bounds and its publish: releases.ts.
 */
import type { Step } from './action-step.ts';
import { isReleaseName, isVersionId, releaseDocumentId, releaseOfVersion } from './documents.ts';
import { patchDocument, type Patch } from './mutations.ts';
import {
  dateTime,
  isRelease,
  makeRoom,
  publishRelease,
  RELEASE_TYPE,
  revise,
  versionsOf,
  type Release,
  type ReleaseState,
} from './releases.ts';

const RELEASE_TYPES = ['asap', 'scheduled', 'undecided'];
const CARDINALITIES = ['many', 'one'];
/** Far longer than a title or a description needs. */
const MAX_TEXT = 10_000;
/** What a release's metadata may weigh as JSON: a release is written again with every state change. */
const MAX_METADATA_BYTES = 64 * 1024;

/** The metadata a release may carry: each known field of its type (others kept as given, as Sanity keeps them). */
function checkedMetadata(value: unknown, fail: Step['fail']): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('validationError', 'metadata must be an object', 400);
  const metadata: Record<string, unknown> = { releaseType: 'undecided', ...(value as Record<string, unknown>) };
  const text = (field: string) =>
    metadata[field] === undefined || (typeof metadata[field] === 'string' && metadata[field].length <= MAX_TEXT);
  if (!text('title') || !text('description'))
    fail('validationError', `metadata.title and metadata.description must be strings of at most ${MAX_TEXT} characters`, 400);
  if (!RELEASE_TYPES.includes(metadata.releaseType as string))
    fail('validationError', `metadata.releaseType must be one of ${RELEASE_TYPES.join(', ')}`, 400);
  if (metadata.cardinality !== undefined && !CARDINALITIES.includes(metadata.cardinality as string))
    fail('validationError', `metadata.cardinality must be one of ${CARDINALITIES.join(', ')}`, 400);
  if (metadata.intendedPublishAt !== undefined && !dateTime(metadata.intendedPublishAt))
    fail('validationError', 'metadata.intendedPublishAt must be an ISO date and time', 400);
  if (JSON.stringify(metadata).length > MAX_METADATA_BYTES)
    fail('validationError', `metadata may hold at most ${MAX_METADATA_BYTES} bytes of JSON`, 400);
  return metadata;
}

/** The release an action names, or its failure: a name the ids cannot carry is a 400. */
function nameIn({ action, fail }: Step): string {
  const name = action.releaseId;
  if (typeof name !== 'string' || !isReleaseName(name))
    fail('validationError', 'releaseId must be letters, digits or "_" (at most 64), and not the name of a perspective', 400);
  return name as string;
}

/** The release the action names, in one of the `states` it may be in for this action. */
function releaseIn(step: Step, states: readonly ReleaseState[], doing: string): Release {
  const name = nameIn(step);
  const release = step.tx.get(releaseDocumentId(name));
  if (!isRelease(release)) return step.fail('documentNotFoundError', `Release "${name}" not found`);
  if (!states.includes(release.state))
    step.fail('releaseStateError', `Release "${name}" is ${release.state}; only a release that is ${states.join(' or ')} can be ${doing}`);
  return release;
}

function create(step: Step) {
  const { tx, action, fail, userId } = step;
  const name = nameIn(step);
  const id = releaseDocumentId(name);
  if (tx.get(id)) fail('documentAlreadyExistsError', `Release "${name}" already exists`);
  const metadata = checkedMetadata(action.metadata, fail);
  makeRoom(tx);
  tx.put(id, { _id: id, _type: RELEASE_TYPE, name, state: 'active', metadata, ...(userId ? { userId } : {}) });
}

/** Only the metadata can be edited: the state and the dates are the other actions'. */
function edit(step: Step) {
  const { tx, action, fail } = step;
  const release = releaseIn(step, ['active', 'scheduled'], 'edited');
  const patch = action.patch as Patch;
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return fail('validationError', 'edit needs a patch', 400);
  const paths = [
    ...Object.keys(patch).filter((operation) => !['set', 'unset'].includes(operation)),
    ...Object.keys(typeof patch.set === 'object' && patch.set !== null ? patch.set : {}),
    ...(Array.isArray(patch.unset) ? (patch.unset as unknown[]) : []),
  ];
  const outside = paths.find((path) => typeof path !== 'string' || !/^metadata(\.|$)/.test(path));
  if (outside !== undefined)
    fail('validationError', `A release's edit may set or unset metadata only, not ${JSON.stringify(outside)}`, 400);
  const patched = patchDocument(release, patch, fail);
  revise(tx, release, { metadata: checkedMetadata(patched.metadata, fail) });
}

async function publish(step: Step) {
  await publishRelease(step.tx, releaseIn(step, ['active'], 'published'), step.validate, step.fail);
}

function schedule(step: Step) {
  const release = releaseIn(step, ['active'], 'scheduled');
  // Any date: the Studio checks its permission with a dry run at "now", and a time gone by is simply due.
  const publishAt = dateTime(step.action.publishAt) ?? step.fail('validationError', 'publishAt must be an ISO date and time', 400);
  revise(step.tx, release, { state: 'scheduled', publishAt, error: undefined });
}

function unschedule(step: Step) {
  revise(step.tx, releaseIn(step, ['scheduled'], 'unscheduled'), { state: 'active', publishAt: undefined });
}

/** The versions leave the dataset (they stop counting toward its bounds); the history keeps them for unarchive. */
function archive(step: Step) {
  const { tx } = step;
  const release = releaseIn(step, ['active'], 'archived');
  const versions = versionsOf(tx, release.name);
  for (const id of versions) tx.delete(id);
  revise(tx, release, { state: 'archived', finalDocumentStates: versions.map((id) => ({ id })), error: undefined });
}

/** The versions come back as they were archived, from the history (one the history no longer holds cannot). */
async function unarchive(step: Step) {
  const { tx, lastState } = step;
  const release = releaseIn(step, ['archived'], 'unarchived');
  makeRoom(tx);
  for (const { id } of release.finalDocumentStates ?? []) {
    const version = isVersionId(id) && releaseOfVersion(id) === release.name ? await lastState?.(id) : null;
    if (version && !tx.get(id)) tx.put(id, version);
  }
  revise(tx, release, { state: 'active', finalDocumentStates: undefined });
}

function remove(step: Step) {
  const { tx } = step;
  const release = releaseIn(step, ['archived', 'published'], 'deleted');
  for (const id of versionsOf(tx, release.name)) tx.delete(id);
  tx.delete(release._id);
}

export const RELEASE_ACTIONS: Record<string, (step: Step) => void | Promise<void>> = {
  'release.create': create,
  'release.edit': edit,
  'release.publish': publish,
  'release.schedule': schedule,
  'release.unschedule': unschedule,
  'release.archive': archive,
  'release.unarchive': unarchive,
  'release.delete': remove,
};
