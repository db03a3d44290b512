/**
 * What a transaction did to a document, as one mutation of Sanity's Mutations API: `create`, `delete`,
 * or a `patch` that sets and unsets only what changed, at the deepest path that names it (fields, and array
 * items by `_key`), so the history keeps a typed word as a word and not as the whole document again.
 */
import type { SanityDocument } from './documents.ts';
import { deepEqual } from './mendoza.ts';

type Json = unknown;
type JsonObject = Record<string, Json>;

const isObject = (value: Json): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEY = /^[A-Za-z0-9_-]+$/;
/** Fields the lake stamps on every write: the mutation is the edit, not the bookkeeping. */
const STAMPED = new Set(['_rev', '_updatedAt']);

const keysOf = (items: Json[]) => items.map((item) => (isObject(item) && typeof item._key === 'string' ? item._key : undefined));

/** Arrays whose items keep the same `_key`s in the same order can be patched item by item. */
function sameKeys(left: Json[], right: Json[]): boolean {
  const [a, b] = [keysOf(left), keysOf(right)];
  return a.length === b.length && a.every((key, index) => key !== undefined && KEY.test(key) && key === b[index]);
}

/** Adds to `set` and `unset` what turns `left` into `right` at `path`; false when a field name cannot be written as a path. */
function walk(left: Json, right: Json, path: string, set: JsonObject, unset: string[]): boolean {
  if (isObject(left) && isObject(right)) {
    const removed = Object.keys(left).filter((key) => !Object.hasOwn(right, key) && !(path === '' && STAMPED.has(key)));
    const changed = Object.keys(right).filter((key) => !(path === '' && STAMPED.has(key)) && !deepEqual(left[key], right[key]));
    if (![...removed, ...changed].every((key) => FIELD.test(key))) return setWhole(path, right, set);
    for (const key of removed) unset.push(path ? `${path}.${key}` : key);
    for (const key of changed) walk(left[key], right[key], path ? `${path}.${key}` : key, set, unset);
    return true;
  }
  if (Array.isArray(left) && Array.isArray(right) && path !== '' && sameKeys(left, right)) {
    right.forEach((item, index) => {
      if (!deepEqual(left[index], item)) walk(left[index], item, `${path}[_key=="${String((item as JsonObject)._key)}"]`, set, unset);
    });
    return true;
  }
  return setWhole(path, right, set);
}

/** The value at `path` written whole; the document itself cannot be (it has no path). */
function setWhole(path: string, value: Json, set: JsonObject): boolean {
  if (path === '') return false;
  set[path] = value;
  return true;
}

export function mutationOf(id: string, before: SanityDocument | null, after: SanityDocument | null): Record<string, unknown> {
  if (!after) return { delete: { id } };
  if (!before) return { create: after };
  const set: JsonObject = {};
  const unset: string[] = [];
  if (!walk(before, after, '', set, unset)) return { createOrReplace: after };
  return {
    patch: {
      id,
      ...(before._rev ? { ifRevisionID: before._rev } : {}),
      ...(Object.keys(set).length > 0 ? { set } : {}),
      ...(unset.length > 0 ? { unset } : {}),
    },
  };
}
