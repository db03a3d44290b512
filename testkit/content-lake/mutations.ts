/**
 * Sanity's Mutations API (sanity.io/docs/http-mutations) and the publish action of its Actions API
 * (sanity.io/docs/http-actions) over an in-memory dataset: a transaction applies every mutation or none,
 * and an error has the Content Lake's shape ({error: {type: 'mutationError' | 'actionError', …}}).
 */
import { randomBytes } from 'node:crypto';

import { publishedIdOf, type SanityDocument } from './perspectives.ts';

type Selection = { id: string } | { query: string; params?: Record<string, unknown> };
type AnySelection = { id?: unknown; query?: unknown; params?: Record<string, unknown> };
type PatchOperations = {
  ifRevisionID?: string;
  set?: Record<string, unknown>;
  setIfMissing?: Record<string, unknown>;
  unset?: string[];
  inc?: Record<string, number>;
  dec?: Record<string, number>;
};
type NewDocument = Omit<SanityDocument, '_id'> & { _id?: string };
export type Mutation =
  | { create: NewDocument }
  | { createOrReplace: SanityDocument }
  | { createIfNotExists: SanityDocument }
  | { delete: Selection }
  | { patch: Selection & PatchOperations };
export type PublishAction = {
  actionType: 'sanity.action.document.publish';
  draftId: string;
  publishedId: string;
  ifDraftRevisionId?: string;
  ifPublishedRevisionId?: string;
};
export type MutationResult = { id: string; operation: 'create' | 'update' | 'delete' | 'none'; document?: SanityDocument };
/** Ids of the documents a `{query}` selection picks, evaluated by the caller (it owns GROQ). */
export type Select = (query: string, params: Record<string, unknown>) => Promise<string[]>;

/** An HTTP answer other than 200: the status and Sanity's body for it. */
export class LakeError extends Error {
  status: number;
  body: unknown;
  constructor(status: number, body: unknown, message = JSON.stringify(body)) {
    super(message);
    this.status = status;
    this.body = body;
  }
}
/** API-gateway errors: {statusCode, error, message}. */
export const httpError = (status: number, error: string, message: string) =>
  new LakeError(status, { statusCode: status, error, message }, message);
/** Content Lake errors: {error: {type, description, …}}. */
export const lakeError = (status: number, type: string, description: string, extra: Record<string, unknown> = {}) =>
  new LakeError(status, { error: { ...extra, type, description } }, description);

export const newId = (bytes = 16) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');
/** Sanity's timestamps have whole seconds: 2026-01-02T03:04:05Z. */
export const timestamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** What one mutation works on: the dataset being built, the results so far, and how it fails. */
type MutationStep = {
  byId: Map<string, SanityDocument>;
  results: MutationResult[];
  operation: string;
  fail: (type: string, description: string, status?: number) => never;
  stamp: (doc: SanityDocument, previous?: SanityDocument) => SanityDocument;
  idsOf: (selection: AnySelection | undefined) => Promise<string[]>;
};

/** create, createOrReplace and createIfNotExists. */
function createDocument({ byId, results, operation, fail, stamp }: MutationStep, doc: Record<string, unknown> | undefined) {
  if (!doc || typeof doc._type !== 'string') fail('validationError', `${operation} needs a document with a string _type`, 400);
  const id =
    typeof doc!._id === 'string' && doc!._id !== ''
      ? doc!._id
      : operation === 'create'
        ? newId()
        : fail('validationError', `${operation} needs an _id`, 400);
  if (id.endsWith('.') || /[^\w.-]/.test(id)) fail('validationError', `Document id "${id}" is not valid`, 400);
  const previous = byId.get(id);
  if (previous && operation === 'create') fail('documentAlreadyExistsError', `Document by ID "${id}" already exists`);
  if (previous && operation === 'createIfNotExists') {
    results.push({ id, operation: 'none', document: previous });
    return;
  }
  const created = stamp({ ...doc, _id: id } as SanityDocument, previous);
  byId.set(id, created);
  results.push({ id, operation: previous ? 'update' : 'create', document: created });
}

async function deleteDocuments({ byId, results, idsOf }: MutationStep, selection: AnySelection | undefined) {
  for (const id of await idsOf(selection)) {
    byId.delete(id);
    results.push({ id, operation: 'delete' });
  }
}

async function patchDocuments({ byId, results, fail, stamp, idsOf }: MutationStep, patch: AnySelection & PatchOperations) {
  for (const id of await idsOf(patch)) {
    const previous = byId.get(id) ?? fail('documentNotFoundError', `Document by ID "${id}" not found`, 404);
    if (patch.ifRevisionID !== undefined && patch.ifRevisionID !== previous._rev) {
      fail(
        'conflictError',
        `Document by ID "${id}" has unexpected revision ID ("${String(previous._rev)}"), expected "${patch.ifRevisionID}"`,
      );
    }
    const patched = stamp(
      applyPatch(structuredClone(previous), patch, (message) => fail('patchError', message, 400)),
      previous,
    );
    patched._id = previous._id;
    byId.set(id, patched);
    results.push({ id, operation: 'update', document: patched });
  }
}

/** Applies `mutations` to a copy of `documents`: the new dataset and one result per mutation (per document for a query). */
export async function applyMutations(documents: SanityDocument[], mutations: unknown, transactionId: string, select: Select) {
  if (!Array.isArray(mutations) || mutations.length === 0)
    throw lakeError(400, 'mutationError', 'The request body must be {"mutations": [...]} with at least one mutation');
  const byId = new Map(documents.map((doc) => [doc._id, doc]));
  const results: MutationResult[] = [];
  const now = timestamp();
  const stamp = (doc: SanityDocument, previous?: SanityDocument): SanityDocument => ({
    ...doc,
    _createdAt: previous?._createdAt ?? doc._createdAt ?? now,
    _updatedAt: now,
    _rev: transactionId,
  });
  for (const [index, mutation] of (mutations as Record<string, unknown>[]).entries()) {
    const [operation = '', body] = Object.entries(mutation ?? {})[0] ?? [];
    const fail = (type: string, description: string, status = 409): never => {
      throw lakeError(status, 'mutationError', `Mutation(s) failed with 1 error(s)`, { items: [{ error: { type, description }, index }] });
    };
    const idsOf = async (selection: AnySelection | undefined): Promise<string[]> => {
      if (selection && typeof selection.id === 'string') return [selection.id];
      if (selection && typeof selection.query === 'string') return select(selection.query, selection.params ?? {});
      return fail('invalidSelectionError', 'A delete or patch needs an "id" or a "query"', 400);
    };
    const step: MutationStep = { byId, results, operation, fail, stamp, idsOf };
    if (operation === 'create' || operation === 'createOrReplace' || operation === 'createIfNotExists')
      createDocument(step, body as Record<string, unknown> | undefined);
    else if (operation === 'delete') await deleteDocuments(step, body as AnySelection | undefined);
    else if (operation === 'patch') await patchDocuments(step, body as AnySelection & PatchOperations);
    else fail('invalidMutationError', `Unknown mutation "${String(operation)}"`, 400);
  }
  return { documents: [...byId.values()], results };
}

/** sanity.action.document.publish: the draft becomes the published document and the draft is deleted. */
export function applyPublish(documents: SanityDocument[], action: PublishAction, transactionId: string, index = 0) {
  const fail = (type: string, description: string, status = 409): never => {
    throw lakeError(status, 'actionError', description, { items: [{ error: { type, description }, index }] });
  };
  const { draftId, publishedId } = action;
  if (typeof draftId !== 'string' || typeof publishedId !== 'string' || publishedIdOf(draftId) !== publishedId || draftId === publishedId) {
    fail('validationError', 'publish needs a draftId (drafts.<id> or versions.<release>.<id>) and its publishedId', 400);
  }
  const byId = new Map(documents.map((doc) => [doc._id, doc]));
  const draft = byId.get(draftId) ?? fail('documentNotFoundError', `Document by ID "${draftId}" not found`);
  const published = byId.get(publishedId);
  if (action.ifDraftRevisionId !== undefined && action.ifDraftRevisionId !== draft._rev)
    fail('conflictError', `Draft "${draftId}" has another revision than ${action.ifDraftRevisionId}`);
  if (action.ifPublishedRevisionId !== undefined && action.ifPublishedRevisionId !== published?._rev)
    fail('conflictError', `Document "${publishedId}" has another revision than ${action.ifPublishedRevisionId}`);
  byId.delete(draftId);
  byId.set(publishedId, {
    ...draft,
    _id: publishedId,
    _createdAt: published?._createdAt ?? draft._createdAt,
    _updatedAt: timestamp(),
    _rev: transactionId,
  });
  return { documents: [...byId.values()], changedIds: [draftId, publishedId] };
}

// Patch paths as Sanity writes them: a.b, a[2], a[-1], a[_key=="k"].
type Step = string | number | { key: string };
function parsePath(path: string): Step[] {
  const steps: Step[] = [];
  for (const [, name, index, key] of path.matchAll(/([^.[\]]+)|\[(-?\d+)\]|\[_key\s*==\s*["']([^"']*)["']\]/g)) {
    steps.push(name !== undefined ? name : index !== undefined ? Number(index) : { key: key! });
  }
  if (steps.length === 0) throw new Error(`empty path "${path}"`);
  return steps;
}

type Container = Record<string, unknown> | unknown[];
/** The container holding the last step of `path`, created on the way for `set` (`create`), else undefined. */
function parentOf(doc: Record<string, unknown>, steps: Step[], create: boolean): [Container, Step] | undefined {
  let node: unknown = doc;
  for (const [i, step] of steps.entries()) {
    const last = i === steps.length - 1;
    const container = node as Container;
    if (last) return [container, step];
    let next: unknown;
    if (Array.isArray(container)) {
      next =
        typeof step === 'number'
          ? container.at(step)
          : typeof step === 'object'
            ? container.find((item) => (item as { _key?: string })?._key === step.key)
            : undefined;
    } else if (typeof step === 'string') {
      next = container[step];
      if ((next === undefined || next === null) && create) next = container[step] = {};
    }
    if (typeof next !== 'object' || next === null) return undefined;
    node = next;
  }
  return undefined;
}

/** An array step's index: a number (negative from the end) or a `_key` selector. */
function indexOf(container: unknown[], step: Step): number {
  if (typeof step === 'number') return step < 0 ? container.length + step : step;
  return container.findIndex((item) => (item as { _key?: string })?._key === (step as { key: string }).key);
}

function assign(container: Container, step: Step, value: unknown, onlyIfMissing = false) {
  if (Array.isArray(container)) {
    const index = indexOf(container, step);
    if (index < 0 || index >= container.length || (onlyIfMissing && container[index] !== undefined)) return;
    container[index] = value;
  } else if (typeof step === 'string' && !(onlyIfMissing && container[step] !== undefined)) {
    container[step] = value;
  }
}

function remove(container: Container, step: Step) {
  if (Array.isArray(container)) {
    const index = indexOf(container, step);
    if (index >= 0 && index < container.length) container.splice(index, 1);
  } else if (typeof step === 'string') {
    delete container[step];
  }
}

/** setIfMissing, set, unset, inc, dec: in Sanity's order of application. */
function applyPatch(doc: SanityDocument, patch: PatchOperations, fail: (message: string) => never): SanityDocument {
  const walk = (
    entries: Record<string, unknown> | undefined,
    create: boolean,
    apply: (container: Container, step: Step, value: unknown) => void,
  ) => {
    for (const [path, value] of Object.entries(entries ?? {})) {
      let found: [Container, Step] | undefined;
      try {
        found = parentOf(doc, parsePath(path), create);
      } catch (error) {
        fail(`Invalid patch path: ${(error as Error).message}`);
      }
      if (found) apply(found[0], found[1], value);
    }
  };
  const number = (value: unknown) => (typeof value === 'number' ? value : 0);
  walk(patch.setIfMissing, true, (container, step, value) => assign(container, step, value, true));
  walk(patch.set, true, (container, step, value) => assign(container, step, value));
  walk(Object.fromEntries((patch.unset ?? []).map((path) => [path, null])), false, (container, step) => remove(container, step));
  walk(patch.inc, false, (container, step, by) =>
    assign(container, step, number((container as Record<string, unknown>)[step as string]) + number(by)),
  );
  walk(patch.dec, false, (container, step, by) =>
    assign(container, step, number((container as Record<string, unknown>)[step as string]) - number(by)),
  );
  return doc;
}
