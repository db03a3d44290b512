/**
 * One dataset: its documents in memory, written through to disk when it has files, and every committed
 * transaction told to its listeners (the listener streams, the live events, the site's cache), one write at
 * a time. The file is the editor's too: before every read and write a hand edit is taken in (a transaction
 * Studios see) or, when the file cannot be used, the last good content served and writes refused, saying why.
 */
import { LakeClock } from './clock.ts';
import { isContentId, type SanityDocument } from './documents.ts';
import { lakeError, newId } from './errors.ts';
import { FILE_AUTHOR, History, type HistoryOptions } from './history.ts';
import { NdjsonFile, writeThrough } from './ndjson-file.ts';
import { changesBetween, contentById, TransactionBuilder, type Change, type Transaction } from './transaction.ts';

export type DatasetOptions = {
  documents?: SanityDocument[];
  /** The content (published documents, drafts, versions): written through when set. */
  file?: string;
  /** System documents (draft mode's secrets, …): kept out of `file`, in this file when set, else in memory. */
  systemFile?: string;
  /** What keeps a file's content from being served (the schema's rules), checked when it changes on disk. */
  checkFile?: (documents: SanityDocument[]) => Promise<string[]>;
  /** How the history of every transaction is kept (history.ts): in memory only without a file. */
  history?: Omit<HistoryOptions, 'contentFile'>;
  /** What each transaction adds once built, from the state it leaves (the policy's record); a throw refuses it. */
  amend?: (tx: TransactionBuilder) => void;
};

export const HAND_EDIT_IDENTITY = FILE_AUTHOR;
/** How many committed transactions are remembered by id, to answer one sent twice. */
const REMEMBERED = 1000;

export class Dataset {
  private docs: SanityDocument[] = [];
  private byId = new Map<string, SanityDocument>();
  private readonly listeners = new Set<(transaction: Transaction) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly committed = new Map<string, unknown>();
  private refusal: string | undefined;
  private readonly content?: NdjsonFile;
  private readonly system?: NdjsonFile;
  private readonly options: DatasetOptions;
  private readonly clock = new LakeClock();
  /** Every committed transaction of the content, for Sanity's history APIs. */
  history!: History;

  private constructor(options: DatasetOptions) {
    this.content = options.file ? new NdjsonFile(options.file) : undefined;
    this.system = options.systemFile ? new NdjsonFile(options.systemFile) : undefined;
    this.options = options;
  }

  static async open(options: DatasetOptions): Promise<Dataset> {
    const dataset = new Dataset(options);
    const content = dataset.content ? await dataset.readContent() : (options.documents ?? []);
    const system = dataset.system ? await dataset.system.read() : [];
    const ids = new Set(content.map((doc) => doc._id));
    dataset.set([...content, ...system.filter((doc) => !isContentId(doc._id) && !ids.has(doc._id))]);
    const { history, drift } = await History.open({ ...options.history, contentFile: options.file }, content);
    dataset.history = history;
    dataset.clock.observe(history.lastTime());
    // The file changed while no lake kept its history (a checkout, an edit by hand, a crash before the log's write).
    if (drift.length > 0) await dataset.applyOutsideChanges(drift);
    return dataset;
  }

  documents(): readonly SanityDocument[] {
    return this.docs;
  }

  get(id: string): SanityDocument | undefined {
    return this.byId.get(id);
  }

  /** Why the file on disk is not being served, if it is not. */
  problem(): string | undefined {
    return this.refusal;
  }

  subscribe(listener: (transaction: Transaction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes in a hand edit of the file, if there is one. */
  refresh(): Promise<void> {
    return this.serially(() => this.takeHandEdit());
  }

  /** Runs `build` as one transaction and commits what it wrote; nothing is written if it throws. */
  commit<T>(build: (tx: TransactionBuilder) => Promise<T>, id = newId(), identity = 'local', dryRun = false) {
    return this.serially(async () => {
      // A transaction sent again (a browser retries a POST whose connection dropped) is answered, not applied twice.
      const done = this.committed.get(id) as { transaction: Transaction; result: T } | undefined;
      if (done) return done;
      await this.takeHandEdit();
      if (this.refusal) throw lakeError(409, 'datasetError', this.refusal);
      const tx = new TransactionBuilder(this.byId, id, this.clock.next());
      const result = await build(tx);
      this.options.amend?.(tx);
      const transaction: Transaction = { id, timestamp: tx.now, identity, changes: tx.changes() };
      if (dryRun) return { transaction, result };
      if (transaction.changes.length > 0) await this.apply(transaction);
      this.committed.set(id, { transaction, result });
      if (this.committed.size > REMEMBERED) this.committed.delete(this.committed.keys().next().value!);
      return { transaction, result };
    });
  }

  /** Lets another process write the files; a later write here takes their locks again. */
  close(): void {
    this.content?.release();
    this.system?.release();
    this.history.release();
  }

  /** Replaces every document, as an import with --replace does (the files are not written); the history starts anew. */
  async replace(documents: SanityDocument[]): Promise<void> {
    this.set(structuredClone(documents));
    await this.history.reset(documents);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private set(documents: SanityDocument[]) {
    this.docs = documents;
    this.byId = new Map(documents.map((doc) => [doc._id, doc]));
  }

  private async apply(transaction: Transaction) {
    const next = [...this.docs];
    for (const { id, after } of transaction.changes) {
      const index = next.findIndex((doc) => doc._id === id);
      if (after === null) next.splice(index, 1);
      else if (index === -1) next.push(after);
      else next[index] = after;
    }
    await writeThrough({ content: this.content, system: this.system }, this.docs, next, transaction.changes);
    this.set(next);
    await this.announce(transaction);
  }

  /** Into the history first, so that a Studio told of the transaction finds it there; then to the listeners. */
  private async announce(transaction: Transaction) {
    await this.history.record(transaction, (id) => this.byId.has(id));
    for (const listener of this.listeners) {
      try {
        listener(transaction);
      } catch (error) {
        console.error('content lake: a transaction listener failed', error);
      }
    }
  }

  /** The file's documents; system documents written into it by hand are taken too, and moved to the system file on the next write. */
  private async readContent(): Promise<SanityDocument[]> {
    const documents = await this.content!.read();
    const problems = this.options.checkFile ? await this.options.checkFile(documents) : [];
    if (problems.length > 0) throw new Error(`${this.content!.file} cannot be served:\n  ${problems.join('\n  ')}`);
    return documents;
  }

  private async takeHandEdit() {
    if (!this.content || !(await this.content.changedOnDisk())) return;
    let documents: SanityDocument[];
    try {
      // Not "every document deleted": a checkout may remove the file before it writes the new one, and a
      // write in that gap would leave a file with nothing but that write's documents.
      if (!(await this.content.exists())) throw new Error(`${this.content.file} is gone (deleted, or being replaced)`);
      documents = await this.readContent();
    } catch (error) {
      const refusal = `${(error as Error).message}\nThe last good content is served, and nothing is saved until the file is fixed.`;
      // Said once per problem, not on every request while it lasts.
      if (refusal !== this.refusal) console.error(`content lake: ${refusal}`);
      this.refusal = refusal;
      return;
    }
    this.refusal = undefined;
    await this.applyOutsideChanges(changesBetween(contentById(this.docs), contentById(documents)), documents);
  }

  /**
   * Takes in `changes` made to the file outside the lake, as one transaction of the file's own (a revision of
   * its own: the Studio follows revision chains). `documents` is the whole file when it was read again.
   */
  private async applyOutsideChanges(found: Change[], documents = this.docs.filter((doc) => isContentId(doc._id))) {
    const id = newId();
    const changes = found.map((change) => ({ ...change, after: change.after && { ...change.after, _rev: id } }));
    const revised = new Map(changes.map((change) => [change.id, change.after]));
    const inFile = new Set(documents.map((doc) => doc._id));
    const system = this.docs.filter((doc) => !isContentId(doc._id) && !inFile.has(doc._id));
    // An unchanged document keeps its revision, which an earlier hand edit may have given it in memory only.
    const kept = (doc: SanityDocument) => (this.byId.get(doc._id)?._rev === doc._rev ? doc : (this.byId.get(doc._id) ?? doc));
    this.set([...documents.map((doc) => revised.get(doc._id) ?? kept(doc)), ...system]);
    if (changes.length > 0) await this.announce({ id, timestamp: this.clock.next(), identity: HAND_EDIT_IDENTITY, changes });
  }
}
