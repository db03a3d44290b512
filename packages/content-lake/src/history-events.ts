/**
 * The events of Sanity's events API (`/data/history/:ds/events/documents/:id`), derived from what a
 * transaction did to a document's published and draft variants: the draft created, published, discarded,
 * the document unpublished or deleted; a release's version published with its release. Edits are not events: the Studio builds them from the transactions
 * between events. Each event is listed under the variant ids the events API shows it for.
 */
import { draftIdOf, isDraftId, isPublishedId, isReleaseId, publishedIdOf, releaseOfVersion } from './documents.ts';
import type { Change } from './transaction.ts';

export type HistoryEvent = {
  type: 'createDocumentVersion' | 'deleteDocumentVersion' | 'publishDocumentVersion' | 'unpublishDocument' | 'deleteDocumentGroup';
  timestamp: string;
  author: string;
  /** The published id, in every event. */
  documentId: string;
  [field: string]: unknown;
};
/** An event and the variant ids (published and draft) whose history lists it. */
export type ListedEvent = { lists: string[]; event: HistoryEvent };

/**
 * The events of one transaction. `exists` tells whether a document exists once the transaction is
 * committed (for the variants it did not change).
 */
export function eventsOf(
  transaction: { id: string; timestamp: string; author: string; changes: readonly Change[] },
  exists: (id: string) => boolean,
): ListedEvent[] {
  const { id, timestamp, author } = transaction;
  const byId = new Map(transaction.changes.map((change) => [change.id, change]));
  const published = new Set(
    transaction.changes.filter((change) => isPublishedId(change.id) || isDraftId(change.id)).map((change) => publishedIdOf(change.id)),
  );
  const listed: ListedEvent[] = [];
  for (const documentId of published) {
    const draftId = draftIdOf(documentId);
    const [main, draft] = [byId.get(documentId), byId.get(draftId)];
    const base = { timestamp, author, documentId, versionId: draftId, releaseId: '' };
    const add = (type: HistoryEvent['type'], lists: string[], fields: Record<string, unknown> = {}) =>
      listed.push({ lists, event: { type, ...base, ...fields } });
    const after = (change: Change | undefined, variant: string) => (change ? change.after !== null : exists(variant));
    const draftCreated = !!draft && draft.before === null && draft.after !== null;

    const released = main?.after ? releasedVersion(transaction.changes, documentId) : undefined;
    if (released) {
      add('publishDocumentVersion', [documentId, released.versionId], { revisionId: id, ...released });
    } else if (main?.after) {
      // The draft it was published from, as it was last: where the Studio looks for what was published.
      const publishedDraft = draft?.before && !draft.after ? { versionRevisionId: draft.before._rev } : {};
      add('publishDocumentVersion', [documentId, draftId], { revisionId: id, ...publishedDraft, publishCause: 'document.publish' });
      if (draftCreated) add('createDocumentVersion', [draftId], { versionRevisionId: id });
    } else if (main && !after(draft, draftId)) {
      add('deleteDocumentGroup', [documentId, draftId]);
    } else if (main) {
      add('unpublishDocument', [documentId], { versionRevisionId: id });
      if (draftCreated) add('createDocumentVersion', [draftId], { versionRevisionId: id });
    } else if (draftCreated) {
      add('createDocumentVersion', [draftId], { versionRevisionId: id });
    } else if (draft && !draft.after) {
      if (exists(documentId)) add('deleteDocumentVersion', [draftId], { versionRevisionId: id });
      else add('deleteDocumentGroup', [documentId, draftId]);
    }
  }
  return listed;
}

/** The version of `documentId` that a release's publish in this transaction took out, and how the release went out. */
function releasedVersion(changes: readonly Change[], documentId: string) {
  const version = changes.find((change) => releaseOfVersion(change.id) !== undefined && publishedIdOf(change.id) === documentId);
  if (!version?.before || version.after) return undefined;
  const releaseId = releaseOfVersion(version.id)!;
  const release = changes.find((change) => isReleaseId(change.id) && change.after?.name === releaseId);
  if (release?.after?.state !== 'published') return undefined;
  const scheduled = release.before?.state === 'scheduled';
  return {
    versionId: version.id,
    releaseId,
    versionRevisionId: version.before._rev,
    publishCause: scheduled ? 'release.schedule' : 'release.publish',
  };
}
