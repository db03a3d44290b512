/**
 * Mendoza patches (github.com/sanity-io/mendoza, the format of a transaction's `effects`), made here: npm's
 * `mendoza` applies them but has no encoder. The whole-value patch `[0, value]` is valid, but the Studio's
 * "Review changes" credits every part of a value to the transaction whose patch wrote it, so a literal
 * would credit every field to every change. These patches touch only what changed: a field is set, deleted
 * or entered, an array is rebuilt from slices of the old one (elements matched by `_key`), a string from its
 * unchanged prefix and suffix. Everything else keeps the earlier transaction's credit.
 */

export type MendozaPatch = unknown[];
export type Effects = { apply: MendozaPatch; revert: MendozaPatch };

// The opcodes used (mendoza-js src/internal-patcher.ts numbers them in this order).
const VALUE = 0;
const PUSH_FIELD_COPY = 10;
const PUSH_FIELD_BLANK = 11;
const PUSH_ELEMENT_COPY = 12;
const PUSH_ELEMENT_BLANK = 13;
const RETURN_INTO_OBJECT_SAME_KEY_POP = 15;
const RETURN_INTO_ARRAY_POP = 16;
const OBJECT_SET_FIELD_VALUE = 17;
const OBJECT_DELETE_FIELD = 19;
const ARRAY_APPEND_VALUE = 20;
const ARRAY_APPEND_SLICE = 21;
const STRING_APPEND_STRING = 22;
const STRING_APPEND_SLICE = 23;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

/** The patch that turns `left` into `right` (either may be null: a document created or deleted). */
export function mendozaPatch(left: unknown, right: unknown): MendozaPatch {
  if (!isObject(left) || !isObject(right)) return [VALUE, right ?? null];
  const ops: unknown[] = [];
  objectOps(left, right, ops);
  return ops;
}

/** A document's `apply` and `revert` effects, as the Content Lake reports them: on the document without `_rev`. */
export function effectsOf(before: object | null, after: object | null): Effects {
  const content = (doc: object | null) => (doc && { ...doc, _rev: undefined }) as JsonObject | null;
  const [left, right] = [withoutUndefined(content(before)), withoutUndefined(content(after))];
  return { apply: mendozaPatch(left, right), revert: mendozaPatch(right, left) };
}

const withoutUndefined = (value: JsonObject | null): JsonObject | null =>
  value ? (JSON.parse(JSON.stringify(value)) as JsonObject) : null;

/** Ops on the object on top of both stacks, which the patcher copies on its first write. */
function objectOps(left: JsonObject, right: JsonObject, ops: unknown[]) {
  // Fields are addressed by their index among the input's keys, sorted as the patcher sorts them.
  const keys = Object.keys(left).sort();
  keys.forEach((key, index) => {
    if (!Object.hasOwn(right, key)) ops.push(OBJECT_DELETE_FIELD, index);
  });
  for (const [key, value] of Object.entries(right)) {
    if (!Object.hasOwn(left, key)) ops.push(OBJECT_SET_FIELD_VALUE, value, key);
    else if (!deepEqual(left[key], value)) fieldOps(keys.indexOf(key), key, left[key]!, value, ops);
  }
}

function fieldOps(index: number, key: string, left: Json, right: Json, ops: unknown[]) {
  const nested = nestedOps(left, right);
  if (!nested) {
    ops.push(OBJECT_SET_FIELD_VALUE, right, key);
    return;
  }
  ops.push(nested.blank ? PUSH_FIELD_BLANK : PUSH_FIELD_COPY, index, ...nested.ops, RETURN_INTO_OBJECT_SAME_KEY_POP);
}

/**
 * Ops that rebuild `right` from `left` in place, when both are of one kind worth entering: objects (copied,
 * then changed), arrays and strings (built from blank). Undefined when `right` is better written whole.
 */
function nestedOps(left: Json, right: Json): { blank: boolean; ops: unknown[] } | undefined {
  const ops: unknown[] = [];
  if (isObject(left) && isObject(right)) {
    objectOps(left, right, ops);
    return { blank: false, ops };
  }
  // A blank that nothing is appended to ends as null, not as '' or []: those are written whole.
  if (Array.isArray(left) && Array.isArray(right) && right.length > 0) {
    return arrayOps(left, right, ops) ? { blank: true, ops } : undefined;
  }
  if (typeof left === 'string' && typeof right === 'string' && right !== '') {
    return stringOps(left, right, ops) ? { blank: true, ops } : undefined;
  }
  return undefined;
}

const keyOf = (item: Json) => (isObject(item) && typeof item._key === 'string' ? item._key : undefined);

/** Pairs each element of `right` with the element of `left` it continues: the one with its `_key`, else the one at its index. */
function matches(left: Json[], right: Json[]): (number | undefined)[] {
  const byKey = new Map<string, number>();
  left.forEach((item, index) => {
    const key = keyOf(item);
    if (key !== undefined && !byKey.has(key)) byKey.set(key, index);
  });
  const used = new Set<number>();
  return right.map((item, index) => {
    const key = keyOf(item);
    const found = key !== undefined ? byKey.get(key) : index < left.length && keyOf(left[index]!) === undefined ? index : undefined;
    if (found === undefined || used.has(found)) return undefined;
    used.add(found);
    return found;
  });
}

/** The array rebuilt from slices of `left`, changed elements and new values; false when nothing of `left` is kept. */
function arrayOps(left: Json[], right: Json[], ops: unknown[]): boolean {
  let kept = false;
  let run: [number, number] | undefined;
  const flush = () => {
    if (run) ops.push(ARRAY_APPEND_SLICE, run[0], run[1]);
    run = undefined;
  };
  matches(left, right).forEach((from, index) => {
    const item = right[index]!;
    if (from === undefined) {
      flush();
      ops.push(ARRAY_APPEND_VALUE, item);
      return;
    }
    kept = true;
    if (deepEqual(left[from], item)) {
      if (run && run[1] === from) run[1] += 1;
      else {
        flush();
        run = [from, from + 1];
      }
      return;
    }
    flush();
    const nested = nestedOps(left[from]!, item);
    if (nested) ops.push(nested.blank ? PUSH_ELEMENT_BLANK : PUSH_ELEMENT_COPY, from, ...nested.ops, RETURN_INTO_ARRAY_POP);
    else ops.push(ARRAY_APPEND_VALUE, item);
  });
  flush();
  return kept;
}

/** Slices of a string are counted in UTF-8 bytes. */
const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');

/** The string as the unchanged prefix and suffix of `left` around the new middle; false when they share neither. */
function stringOps(left: string, right: string, ops: unknown[]): boolean {
  // Compared by code point, so that no slice splits a character.
  const a = Array.from(left);
  const b = Array.from(right);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix += 1;
  if (prefix === 0 && suffix === 0) return false;
  const before = utf8Length(a.slice(0, prefix).join(''));
  const middle = b.slice(prefix, b.length - suffix).join('');
  const tail = utf8Length(a.slice(a.length - suffix).join(''));
  const total = utf8Length(left);
  if (prefix > 0) ops.push(STRING_APPEND_SLICE, 0, before);
  if (middle !== '') ops.push(STRING_APPEND_STRING, middle);
  if (suffix > 0) ops.push(STRING_APPEND_SLICE, total - tail, total);
  return true;
}
