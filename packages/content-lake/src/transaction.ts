import { isContentId, type SanityDocument } from './documents.ts';
import { lakeError } from './errors.ts';
import { deepEqual, effectsOf, type Effects } from './mendoza.ts';

/** What one dataset may hold, drafts and system documents included: what bounds the file and the memory. */
export const MAX_DOCUMENTS = 10_000;

/** One document a transaction changed: as it was, as it is now (null: absent), in Sanity's mutation form. */
export type Change = { id: string; before: SanityDocument | null; after: SanityDocument | null };

/** A committed transaction: what the listener, the history and the file writer are told. */
export type Transaction = { id: string; timestamp: string; identity: string; changes: Change[] };

/** A document as effects see it: without its `_rev` (not even as a key, as mendoza patches count keys). */
export function withoutRev(doc: SanityDocument | null | undefined): Omit<SanityDocument, '_rev'> | null {
  if (!doc) return null;
  const { _rev, ...rest } = doc;
  return rest;
}

/** The content documents of `documents`, by id. */
export const contentById = (documents: readonly SanityDocument[]) =>
  new Map(documents.filter((doc) => isContentId(doc._id)).map((doc) => [doc._id, doc]));

/** The documents that differ between two states of the content, as changes; a revision alone is no change. */
export function changesBetween(before: ReadonlyMap<string, SanityDocument>, after: ReadonlyMap<string, SanityDocument>): Change[] {
  const same = (a: SanityDocument | null, b: SanityDocument | null) =>
    deepEqual(JSON.parse(JSON.stringify(withoutRev(a))), JSON.parse(JSON.stringify(withoutRev(b))));
  return [...new Set([...before.keys(), ...after.keys()])]
    .map((id) => ({ id, before: before.get(id) ?? null, after: after.get(id) ?? null }))
    .filter((change) => !same(change.before, change.after));
}

const effects = new WeakMap<Change, Effects>();

/** A change's mendoza effects, made once for the listener and the history alike. */
export function effectsOfChange(change: Change): Effects {
  let found = effects.get(change);
  if (!found) effects.set(change, (found = effectsOf(change.before, change.after)));
  return found;
}

/**
 * The dataset as one transaction sees it while it is being built: reads see its own writes, and nothing
 * reaches the dataset until the whole transaction succeeded (Sanity's transactions apply every mutation
 * or none). Every write is stamped with the transaction's id as the new `_rev`.
 */
export class TransactionBuilder {
  readonly id: string;
  readonly now: string;
  private readonly base: ReadonlyMap<string, SanityDocument>;
  private readonly written = new Map<string, SanityDocument | null>();
  private size: number;

  /** `now` is the transaction's time, from the dataset's clock (clock.ts). */
  constructor(base: ReadonlyMap<string, SanityDocument>, id: string, now: string) {
    this.base = base;
    this.size = base.size;
    this.id = id;
    this.now = now;
  }

  get(id: string): SanityDocument | undefined {
    const written = this.written.get(id);
    if (written !== undefined) return written ?? undefined;
    return this.base.get(id);
  }

  /** Writes `doc` under `id` (the document's own _id is replaced), stamped as this transaction's revision. */
  put(id: string, doc: SanityDocument): SanityDocument {
    const previous = this.get(id);
    if (previous === undefined) {
      if (this.size >= MAX_DOCUMENTS)
        throw lakeError(409, 'documentLimitExceededError', `The dataset holds ${MAX_DOCUMENTS} documents, its most: delete some first`);
      this.size += 1;
    }
    const stamped = {
      ...doc,
      _id: id,
      _createdAt: previous?._createdAt ?? doc._createdAt ?? this.now,
      _updatedAt: this.now,
      _rev: this.id,
    };
    this.written.set(id, stamped);
    return stamped;
  }

  delete(id: string): boolean {
    if (this.get(id) === undefined) return false;
    this.written.set(id, null);
    this.size -= 1;
    return true;
  }

  /** The ids that start with `prefix` as this transaction sees the dataset (its own writes included), sorted. */
  idsStartingWith(prefix: string): string[] {
    const ids = new Set([...this.base.keys(), ...this.written.keys()].filter((id) => id.startsWith(prefix)));
    return [...ids].filter((id) => this.get(id) !== undefined).sort();
  }

  /** Every document whose state differs from the dataset's, in the order first written. */
  changes(): Change[] {
    return [...this.written]
      .map(([id, after]) => ({ id, before: this.base.get(id) ?? null, after }))
      .filter(({ before, after }) => before !== null || after !== null);
  }
}
