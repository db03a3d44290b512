/**
 * Sanity's Actions API (sanity.io/docs/http-actions), through which the Studio does all ordinary editing:
 * each action becomes writes to the draft, version and published documents of one transaction. The
 * document actions are here; a draft's place may be taken by a release's version (`versions.<release>.<id>`),
 * as the Studio edits inside a release with the same actions. Version actions: versions.ts; release
 * actions: release-actions.ts.
 */
import { isVariantOf, publishable, publishedIdIn, type ActionContext, type Fail, type Step, type Action } from './action-step.ts';
import { draftIdOf, isDraftId, isVersionId, publishedIdOf, type SanityDocument } from './documents.ts';
import { itemError } from './errors.ts';
import { patchDocument, type Patch } from './mutations.ts';
import { RELEASE_ACTIONS } from './release-actions.ts';
import type { TransactionBuilder } from './transaction.ts';
import { VERSION_ACTIONS } from './versions.ts';

export type { ActionContext, Validate } from './action-step.ts';

const PREFIX = 'sanity.action.';
const isString = (value: unknown) => typeof value === 'string';

/** The optional fields, and what each must be when given: a precondition of another type is refused, never skipped. */
const OPTIONAL: Record<string, [valid: (value: unknown) => boolean, shape: string]> = {
  draftId: [isString, 'a string'],
  ifDraftRevisionId: [isString, 'a string'],
  ifPublishedRevisionId: [isString, 'a string'],
  ifExists: [(value) => value === 'fail' || value === 'ignore', '"fail" or "ignore"'],
  includeDrafts: [(value) => Array.isArray(value) && value.every(isString), 'an array of document ids'],
};

/** The published id and the variant an action edits: `draftId`, the draft or a version, drafts.<publishedId> when absent. */
function ids(step: Step): { draftId: string; publishedId: string } {
  const { action, fail } = step;
  const publishedId = publishedIdIn(step);
  const draftId = typeof action.draftId === 'string' ? action.draftId : draftIdOf(publishedId);
  if (!isVariantOf(draftId, publishedId))
    fail(
      'validationError',
      `${String(action.actionType)}'s draftId must be drafts.${publishedId} or versions.<release>.${publishedId}`,
      400,
    );
  return { draftId, publishedId };
}

function attributes({ action, fail }: Step, publishedId: string): SanityDocument {
  const doc = action.attributes as SanityDocument | undefined;
  if (typeof doc !== 'object' || doc === null || typeof doc._type !== 'string')
    fail('validationError', 'attributes must be a document with a string _type', 400);
  const id = typeof doc!._id === 'string' ? doc!._id : draftIdOf(publishedId);
  if (!isVariantOf(id, publishedId))
    fail('validationError', `attributes._id must be drafts.${publishedId} or versions.<release>.${publishedId}`, 400);
  return { ...structuredClone(doc!), _id: id };
}

function create(step: Step) {
  const publishedId = publishedIdIn(step);
  const doc = attributes(step, publishedId);
  if (step.tx.get(doc._id)) {
    if (step.action.ifExists === 'ignore') return;
    step.fail('documentAlreadyExistsError', `Document by ID "${doc._id}" already exists`);
  }
  step.tx.put(doc._id, doc);
}

/** The first edit of a published document makes its draft: a copy of it, then the patch. */
function edit(step: Step) {
  const { tx, action, fail } = step;
  const { draftId, publishedId } = ids(step);
  const base = tx.get(draftId) ?? tx.get(publishedId) ?? fail('documentNotFoundError', `Neither "${draftId}" nor "${publishedId}" exists`);
  if (typeof action.patch !== 'object' || action.patch === null || Array.isArray(action.patch))
    fail('validationError', 'edit needs a patch', 400);
  tx.put(draftId, patchDocument({ ...base, _id: draftId }, action.patch as Patch, fail));
}

async function publish(step: Step) {
  const { tx, action, fail, validate } = step;
  const { draftId, publishedId } = ids(step);
  const draft = tx.get(draftId) ?? fail('documentNotFoundError', `Document by ID "${draftId}" not found`);
  const published = tx.get(publishedId);
  if (typeof action.ifDraftRevisionId === 'string' && action.ifDraftRevisionId !== draft._rev)
    fail('conflictError', `Draft "${draftId}" has another revision than ${action.ifDraftRevisionId}`);
  if (typeof action.ifPublishedRevisionId === 'string' && action.ifPublishedRevisionId !== published?._rev)
    fail('conflictError', `Document "${publishedId}" has another revision than ${action.ifPublishedRevisionId}`);
  const next = publishable(draft, publishedId, published);
  const problems = validate ? await validate(next, tx) : [];
  if (problems.length > 0) fail('validationError', `"${publishedId}" cannot be published: ${problems.join('; ')}`);
  tx.delete(draftId);
  tx.put(publishedId, next);
}

function discard({ tx, action, fail }: Step) {
  const draftId =
    typeof action.draftId === 'string' && (isDraftId(action.draftId) || isVersionId(action.draftId)) ? action.draftId : undefined;
  if (!draftId) fail('validationError', 'discard needs a draftId (drafts.<id> or versions.<release>.<id>)', 400);
  if (!tx.delete(draftId!)) fail('documentNotFoundError', `Document by ID "${draftId}" not found`);
}

/** The published document goes; a draft keeps its content (made from it when there was none). */
function unpublish(step: Step) {
  const { tx, fail } = step;
  const { draftId, publishedId } = ids(step);
  const published = tx.get(publishedId) ?? fail('documentNotFoundError', `Document by ID "${publishedId}" not found`);
  if (!tx.get(draftId)) tx.put(draftId, { ...published, _id: draftId });
  tx.delete(publishedId);
}

function remove(step: Step) {
  const { tx, action } = step;
  const publishedId = publishedIdIn(step);
  const drafts = Array.isArray(action.includeDrafts) ? action.includeDrafts.filter((id): id is string => typeof id === 'string') : [];
  for (const id of [publishedId, draftIdOf(publishedId), ...drafts]) if (publishedIdOf(id) === publishedId) tx.delete(id);
}

function replaceDraft(step: Step) {
  const publishedId = publishedIdIn(step);
  const doc = attributes(step, publishedId);
  step.tx.put(doc._id, doc);
}

const ACTIONS: Record<string, (step: Step) => void | Promise<void>> = {
  'document.create': create,
  'document.edit': edit,
  'document.publish': publish,
  'document.discard': discard,
  'document.unpublish': unpublish,
  'document.delete': remove,
  'document.replaceDraft': replaceDraft,
  ...VERSION_ACTIONS,
  ...RELEASE_ACTIONS,
};

/** Applies one action to the transaction, or throws Sanity's actionError for it. */
export async function applyAction(tx: TransactionBuilder, action: unknown, index: number, context: ActionContext = {}): Promise<void> {
  const fail: Fail = (type, description, status = 409) => {
    throw itemError('actionError', index, type, description, status);
  };
  const given = typeof action === 'object' && action !== null ? (action as Action) : {};
  const name = typeof given.actionType === 'string' && given.actionType.startsWith(PREFIX) ? given.actionType.slice(PREFIX.length) : '';
  const run =
    (Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined) ??
    fail('unsupportedActionError', `Action type "${String(given.actionType)}" is not supported by the local Content Lake`, 400);
  for (const [field, [valid, shape]] of Object.entries(OPTIONAL))
    if (given[field] !== undefined && !valid(given[field])) fail('validationError', `${field} must be ${shape}`, 400);
  await run({ ...context, tx, action: given, fail });
}
