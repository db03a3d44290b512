/**
 * Sanity's Mutations API (sanity.io/docs/http-mutations) over a transaction: create, createOrReplace,
 * createIfNotExists, delete and patch, by id or by a GROQ query. Patches are applied by @sanity/mutator,
 * the Studio's own engine for the same operations (set, setIfMissing, unset, insert, inc, dec and
 * diffMatchPatch, with Sanity's paths), so the lake and the Studio agree on every edit.
 */
import { Mutation as Mutator } from '@sanity/mutator';

import { isDocument, isValidId, type SanityDocument } from './documents.ts';
import { itemError, newId } from './errors.ts';
import type { TransactionBuilder } from './transaction.ts';

export type MutationResult = { id: string; operation: 'create' | 'update' | 'delete' | 'none'; document?: SanityDocument };
/** Ids of the documents a `{query}` selection picks, evaluated by the caller (it owns GROQ). */
export type Select = (query: string, params: Record<string, unknown>) => Promise<string[]>;
export type Patch = Record<string, unknown> & { id?: unknown; query?: unknown; params?: unknown; ifRevisionID?: unknown };

type Fail = (type: string, description: string, status?: number) => never;

const CREATES = ['create', 'createOrReplace', 'createIfNotExists'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const valuesAre = (type: string) => (value: unknown) => isObject(value) && Object.values(value).every((item) => typeof item === type);
/** What each patch operation must be (sanity.io/docs/http-patches): the patch engine skips, or trips over, anything else. */
const OPERATIONS: Record<string, [valid: (value: unknown) => boolean, shape: string]> = {
  set: [isObject, 'an object of paths and values'],
  setIfMissing: [isObject, 'an object of paths and values'],
  insert: [isObject, 'an object'],
  diffMatchPatch: [valuesAre('string'), 'an object of paths and patch texts'],
  inc: [valuesAre('number'), 'an object of paths and numbers'],
  dec: [valuesAre('number'), 'an object of paths and numbers'],
  unset: [(value) => Array.isArray(value) && value.every((path) => typeof path === 'string'), 'an array of paths'],
  ifRevisionID: [(value) => typeof value === 'string', 'a string'],
};

/** Applies `patch` to `doc` with Sanity's patch engine; a patch it cannot apply is the caller's mistake. */
export function patchDocument(doc: SanityDocument, patch: Patch, fail: Fail): SanityDocument {
  for (const [operation, [valid, shape]] of Object.entries(OPERATIONS))
    if (patch[operation] !== undefined && !valid(patch[operation])) fail('patchError', `A patch's ${operation} must be ${shape}`, 400);
  if (typeof patch.ifRevisionID === 'string' && patch.ifRevisionID !== doc._rev) {
    fail(
      'conflictError',
      `Document by ID "${doc._id}" has unexpected revision ID ("${String(doc._rev)}"), expected "${patch.ifRevisionID}"`,
    );
  }
  const { ifRevisionID: _, query: __, params: ___, ...operations } = patch;
  let patched: SanityDocument | null;
  try {
    patched = new Mutator({ mutations: [{ patch: { ...operations, id: doc._id } }] }).apply(structuredClone(doc));
  } catch (error) {
    return fail('patchError', `Cannot apply the patch to "${doc._id}": ${(error as Error).message}`, 400);
  }
  if (!isDocument(patched)) return fail('patchError', `The patch to "${doc._id}" leaves no valid document (it needs _id and _type)`, 400);
  return patched;
}

function create(tx: TransactionBuilder, operation: (typeof CREATES)[number], body: unknown, fail: Fail): MutationResult {
  if (typeof body !== 'object' || body === null || typeof (body as SanityDocument)._type !== 'string')
    fail('validationError', `${operation} needs a document with a string _type`, 400);
  const doc = structuredClone(body) as SanityDocument;
  if (doc._id !== undefined && typeof doc._id !== 'string') fail('validationError', `${operation} needs a string _id`, 400);
  const given = typeof doc._id === 'string' && doc._id !== '' ? doc._id : undefined;
  const id = given ?? (operation === 'create' ? newId() : fail('validationError', `${operation} needs an _id`, 400));
  if (!isValidId(id)) fail('validationError', `Document id "${id}" is not valid`, 400);
  const previous = tx.get(id);
  if (previous && operation === 'create') fail('documentAlreadyExistsError', `Document by ID "${id}" already exists`);
  if (previous && operation === 'createIfNotExists') return { id, operation: 'none', document: previous };
  return { id, operation: previous ? 'update' : 'create', document: tx.put(id, doc) };
}

async function idsOf(selection: Patch | undefined, select: Select, fail: Fail): Promise<string[]> {
  if (selection && typeof selection.id === 'string') return [selection.id];
  if (selection && typeof selection.query === 'string') {
    const params = typeof selection.params === 'object' && selection.params !== null ? (selection.params as Record<string, unknown>) : {};
    return select(selection.query, params);
  }
  return fail('invalidSelectionError', 'A delete or patch needs an "id" or a "query"', 400);
}

/** Applies one mutation to the transaction; its results, one per document it touched. */
export async function applyMutation(tx: TransactionBuilder, mutation: unknown, index: number, select: Select): Promise<MutationResult[]> {
  const fail: Fail = (type, description, status = 409) => {
    throw itemError('mutationError', index, type, description, status);
  };
  const [operation = '', body] = typeof mutation === 'object' && mutation !== null ? (Object.entries(mutation)[0] ?? []) : [];
  if ((CREATES as readonly string[]).includes(operation)) return [create(tx, operation as (typeof CREATES)[number], body, fail)];
  if (operation === 'delete') {
    const ids = await idsOf(body as Patch, select, fail);
    return ids.filter((id) => tx.delete(id)).map((id) => ({ id, operation: 'delete' as const }));
  }
  if (operation === 'patch') {
    const results: MutationResult[] = [];
    for (const id of await idsOf(body as Patch, select, fail)) {
      const previous = tx.get(id) ?? fail('documentNotFoundError', `Document by ID "${id}" not found`, 404);
      results.push({ id, operation: 'update', document: tx.put(id, patchDocument(previous, body as Patch, fail)) });
    }
    return results;
  }
  return fail('invalidMutationError', `Unknown mutation "${String(operation)}"`, 400);
}
