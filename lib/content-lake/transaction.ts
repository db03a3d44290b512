import { timestamp, type SanityDocument } from './documents.ts';
import { lakeError } from './errors.ts';

/** What one dataset may hold, drafts and system documents included: what bounds the file and the memory. */
export const MAX_DOCUMENTS = 10_000;

/** One document a transaction changed: as it was, as it is now (null: absent), in Sanity's mutation form. */
export type Change = { id: string; before: SanityDocument | null; after: SanityDocument | null };

/** A committed transaction: what the listener, the history and the file writer are told. */
export type Transaction = { id: string; timestamp: string; identity: string; changes: Change[] };

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

  constructor(base: ReadonlyMap<string, SanityDocument>, id: string, at = new Date()) {
    this.base = base;
    this.size = base.size;
    this.id = id;
    this.now = timestamp(at);
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

  /** Every document whose state differs from the dataset's, in the order first written. */
  changes(): Change[] {
    return [...this.written]
      .map(([id, after]) => ({ id, before: this.base.get(id) ?? null, after }))
      .filter(({ before, after }) => before !== null || after !== null);
  }
}
