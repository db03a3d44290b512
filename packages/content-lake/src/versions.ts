/**
 * The version actions of Sanity's Actions API (`sanity.action.document.version.*`), as Studio 5.31.2 sends
 * them (../shared/STUDIO-HISTORY.md §2): a document added to a release (a copy of one of its variants, or
 * a whole document), copied back to its draft, removed from the release, marked to be unpublished by it,
 * replaced. Whether the release takes the change (it exists, is active, has room) is checked once the
 * whole transaction is built: releases.ts `checkVersions`.
 */
import { isVariantOf, publishedIdIn, type Step } from './action-step.ts';
import { isDocument, isDraftId, isVersionId, publishedIdOf, type SanityDocument } from './documents.ts';

/** A document as another variant of its group: what the release machinery keeps on a version stays behind. */
function variantCopy(doc: SanityDocument, id: string, mark?: SanityDocument['_system']): SanityDocument {
  const { _system: _, ...content } = doc;
  return { ...content, _id: id, ...(mark === undefined ? {} : { _system: mark }) };
}

/** The version (or draft) an action names in `field`, as a variant of `publishedId`. */
function variantIn({ action, fail }: Step, field: string, publishedId: string): string {
  const id = action[field];
  if (typeof id !== 'string' || !isVariantOf(id, publishedId))
    fail('validationError', `${field} must be drafts.${publishedId} or versions.<release>.${publishedId}`, 400);
  return id as string;
}

/** A whole document given in `document`, with the id of a version or draft; its published id. */
function documentIn({ action, fail }: Step): { doc: SanityDocument; publishedId: string } {
  const doc = action.document;
  if (!isDocument(doc) || !(isVersionId(doc._id) || isDraftId(doc._id)))
    fail('validationError', 'document must be a document whose _id is versions.<release>.<id> or drafts.<id>', 400);
  const { _id } = doc as SanityDocument;
  const publishedId = publishedIdOf(_id);
  if (!isVariantOf(_id, publishedId)) fail('validationError', `"${_id}" is not a valid version id`, 400);
  return { doc: structuredClone(doc as SanityDocument), publishedId };
}

function create(step: Step) {
  const { tx, action, fail } = step;
  const publishedId = publishedIdIn(step);
  if (action.document !== undefined) {
    const { doc, publishedId: own } = documentIn(step);
    if (own !== publishedId) fail('validationError', `document._id must be a version of "${publishedId}"`, 400);
    if (tx.get(doc._id)) fail('documentAlreadyExistsError', `Document by ID "${doc._id}" already exists`);
    tx.put(doc._id, doc);
    return;
  }
  const versionId = variantIn(step, 'versionId', publishedId);
  const baseId = action.baseId === publishedId ? publishedId : variantIn(step, 'baseId', publishedId);
  const base = tx.get(baseId) ?? fail('documentNotFoundError', `Document by ID "${baseId}" not found`);
  if (typeof action.ifBaseRevisionId === 'string' && action.ifBaseRevisionId !== base._rev)
    fail('conflictError', `Document "${baseId}" has another revision than ${action.ifBaseRevisionId}`);
  if (tx.get(versionId)) fail('documentAlreadyExistsError', `Document by ID "${versionId}" already exists`);
  tx.put(versionId, variantCopy(base, versionId));
}

function discard(step: Step) {
  const { tx, action, fail } = step;
  const id = typeof action.versionId === 'string' ? action.versionId : '';
  variantIn(step, 'versionId', publishedIdOf(id));
  if (!tx.delete(id)) fail('documentNotFoundError', `Document by ID "${id}" not found`);
}

/** Marks the version so that publishing its release unpublishes the document; made from the published document when missing. */
function unpublish(step: Step) {
  const { tx, fail } = step;
  const publishedId = publishedIdIn(step);
  const versionId = variantIn(step, 'versionId', publishedId);
  if (!isVersionId(versionId)) fail('validationError', 'versionId must be a version id, versions.<release>.<id>', 400);
  const published = tx.get(publishedId) ?? fail('documentNotFoundError', `Document by ID "${publishedId}" not found`);
  tx.put(versionId, variantCopy(tx.get(versionId) ?? published, versionId, { delete: true }));
}

function replace(step: Step) {
  const { doc } = documentIn(step);
  if (!step.tx.get(doc._id)) step.fail('documentNotFoundError', `Document by ID "${doc._id}" not found`);
  step.tx.put(doc._id, doc);
}

export const VERSION_ACTIONS: Record<string, (step: Step) => void> = {
  'document.version.create': create,
  'document.version.discard': discard,
  'document.version.unpublish': unpublish,
  'document.version.replace': replace,
};
