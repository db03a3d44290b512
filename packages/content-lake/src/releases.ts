/**
 * Content releases as Studio 5.31.2 drives them (../shared/STUDIO-HISTORY.md §2): a release document
 * (`_.releases.<name>`, `system.release`) and its versions (`versions.<name>.<id>`), changed by the eight
 * `sanity.action.release.*` actions. A release's publish writes every version to its published id, removes
 * the versions and marks the release published, all in the transaction that runs it: a kill leaves all of
 * it or none, and a publish cannot happen twice. Bounds as Sanity's: MAX_ACTIVE_RELEASES releases not yet
 * published or archived, MAX_RELEASE_DOCUMENTS versions in one. The actions themselves: release-actions.ts.
 */
import { publishable, type Step, type Validate } from './action-step.ts';
import { publishedIdOf, releaseDocumentId, releaseOfVersion, RELEASES_PREFIX, versionIdOf, type SanityDocument } from './documents.ts';
import { lakeError, LakeError } from './errors.ts';
import type { TransactionBuilder } from './transaction.ts';

/** Releases a dataset holds that are neither published nor archived: Sanity's `datasetReleaseLimit`. */
export const MAX_ACTIVE_RELEASES = 100;
/** Sanity's bound on the documents of one release. */
export const MAX_RELEASE_DOCUMENTS = 1000;
export const RELEASE_TYPE = 'system.release';

const STATES = ['active', 'scheduling', 'scheduled', 'publishing', 'published', 'archiving', 'archived', 'unarchiving'] as const;
export type ReleaseState = (typeof STATES)[number];
export type Release = SanityDocument & {
  name: string;
  state: ReleaseState;
  metadata: Record<string, unknown>;
  publishAt?: string;
  publishedAt?: string;
  finalDocumentStates?: { id: string }[];
  error?: { message: string };
};

export const isRelease = (doc: SanityDocument | undefined): doc is Release =>
  doc?._type === RELEASE_TYPE && STATES.includes((doc as Release).state);
/** Whether a release counts toward MAX_ACTIVE_RELEASES, as the Studio counts its active releases. */
export const isOpen = (release: Release) => release.state !== 'published' && release.state !== 'archived';

/** The releases this transaction sees. */
const releasesIn = (tx: TransactionBuilder) =>
  tx
    .idsStartingWith(RELEASES_PREFIX)
    .map((id) => tx.get(id))
    .filter(isRelease);
export const versionsOf = (tx: TransactionBuilder, name: string) => tx.idsStartingWith(versionIdOf(name, ''));

/** An ISO date-time as Sanity keeps it, or undefined when `value` is none. */
export function dateTime(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value) || !Number.isFinite(Date.parse(value))) return undefined;
  return new Date(value).toISOString();
}

/** How many releases count toward the bound: what the limits endpoint reports. */
export const openReleases = (documents: readonly SanityDocument[]) => documents.filter((doc) => isRelease(doc) && isOpen(doc)).length;

/** Sanity's answer past the bound, which the Studio turns into its upsell dialog. */
function limitExceeded(): LakeError {
  return lakeError(
    403,
    'releaseLimitExceededError',
    `The dataset has ${MAX_ACTIVE_RELEASES} releases that are neither published nor archived, its most: publish or archive one first`,
    { limit: MAX_ACTIVE_RELEASES },
  );
}

export function makeRoom(tx: TransactionBuilder) {
  if (releasesIn(tx).filter(isOpen).length >= MAX_ACTIVE_RELEASES) throw limitExceeded();
}

/** Writes `release` with `changes`; a field set to undefined is removed. */
export function revise(tx: TransactionBuilder, release: Release, changes: Partial<Release>) {
  const next = { ...release, ...changes };
  for (const key of Object.keys(changes) as (keyof Release)[]) if (changes[key] === undefined) delete next[key];
  tx.put(release._id, next);
}

/** Thrown when a release cannot be published; the lake then marks the release (markFailed) in a transaction of its own. */
export class ReleasePublishError extends LakeError {
  readonly release: string;
  /** What the release shows as its error. */
  readonly reason: string;

  constructor(release: string, reason: string, error: LakeError) {
    super(error.status, error.body, error.message, error.headers);
    this.release = release;
    this.reason = reason;
  }
}

/**
 * Publishes release `name` in `tx`: each version to its published id (a version marked `_system.delete`
 * unpublishes it), the versions removed, the release marked published. Every document must pass
 * `validate`; if one fails, nothing is written and a ReleasePublishError says why.
 */
export async function publishRelease(tx: TransactionBuilder, release: Release, validate: Validate | undefined, fail: Step['fail']) {
  const versions = versionsOf(tx, release.name);
  const problems: string[] = [];
  for (const versionId of versions) {
    const version = tx.get(versionId)!;
    const publishedId = publishedIdOf(versionId);
    if ((version._system as { delete?: unknown } | undefined)?.delete === true) tx.delete(publishedId);
    else {
      const next = publishable(version, publishedId, tx.get(publishedId));
      const found = validate ? await validate(next, tx) : [];
      problems.push(...found.map((problem) => `${publishedId}: ${problem}`));
      tx.put(publishedId, next);
    }
    tx.delete(versionId);
  }
  if (problems.length > 0) {
    const reason = `Release "${release.name}" cannot be published: ${problems.join('; ')}`;
    try {
      fail('validationError', reason);
    } catch (error) {
      throw new ReleasePublishError(release.name, reason, error as LakeError);
    }
  }
  revise(tx, release, {
    state: 'published',
    publishedAt: tx.now,
    finalDocumentStates: versions.map((id) => ({ id })),
    error: undefined,
  });
}

/** A publish that failed leaves the release active, with the reason, as Sanity shows it; a schedule it had is dropped. */
export function markFailed(tx: TransactionBuilder, name: string, message: string) {
  const release = tx.get(releaseDocumentId(name));
  if (!isRelease(release) || !isOpen(release)) return;
  revise(tx, release, { state: 'active', publishAt: undefined, error: { message } });
}

/**
 * What a transaction did to versions, against their releases: a version is written only into an active
 * release with room for it, and removed from a release that is not active only by the release's own change
 * (published, archived, deleted). Versions of a release that does not exist are let be (as the Content
 * Lake does: a release's document and its versions are written separately), within the same bound.
 * Throws 409.
 */
export function checkVersions(tx: TransactionBuilder) {
  const changed = new Set(tx.changes().map((change) => change.id));
  for (const { id, before, after } of tx.changes()) {
    const name = releaseOfVersion(id);
    if (name === undefined) continue;
    const release = tx.get(releaseDocumentId(name));
    const byRelease = isRelease(release) && after === null && changed.has(release._id);
    if (isRelease(release) && release.state !== 'active' && !byRelease)
      throw lakeError(409, 'releaseStateError', `Release "${name}" is ${release.state}: its documents cannot be changed`);
    if (before === null && after !== null && versionsOf(tx, name).length > MAX_RELEASE_DOCUMENTS)
      throw lakeError(409, 'releaseDocumentLimitExceededError', `A release holds at most ${MAX_RELEASE_DOCUMENTS} documents`, {
        limit: MAX_RELEASE_DOCUMENTS,
      });
  }
}
