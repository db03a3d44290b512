/**
 * The dataset's history, as Sanity's history APIs answer it (history-api.ts): every transaction the lake
 * commits, kept in a log (history-log.ts) that survives restarts, and before the log, the dataset file's
 * commits in git (history-past.ts). Sanity keeps a project's transactions for its plan's retention; this
 * keeps the newest MAX_ENTRIES transactions and MAX_BYTES of them, and folds older ones into the log's
 * base, which the history then shows as one change by "earlier edits".
 *
 * A document's `_rev` names the transaction that last wrote it; where a file's `_rev` is not a transaction's
 * id (written on another machine, or kept through an edit by hand), it is an alias of it. Documents at a
 * revision are rebuilt from the nearest state the timeline holds by the transactions' `apply` effects.
 */
import { lakeTime } from './clock.ts';
import type { SanityDocument } from './documents.ts';
import { applied, entryOf, replay, type Entry } from './history-entry.ts';
import { HistoryLog, type Effects, type LogBase, type LogContent, type LogEntry } from './history-log.ts';
import { FILE_AUTHOR, PSEUDO_AUTHORS, readPast, RETENTION_AUTHOR, type Author, type Past } from './history-past.ts';
import { changesBetween, contentById, type Change, type Transaction } from './transaction.ts';

export { FILE_AUTHOR, type Author };
export const MAX_ENTRIES = 5000;
export const MAX_BYTES = 16 * 1024 * 1024;
/** Trimming keeps this share of the bound, so that it runs once in a while, not on every commit. */
const KEEP = 0.75;
/**
 * Sanity's transaction log lags its listener, and the Studio relies on it: after a draft is created it asks
 * for the draft's transactions again and adds those its listener brings after the creation, without
 * looking for the same transaction in both. An answer that already held them showed every quick edit
 * twice in the history. So an answer that runs up to now leaves out the newest second, as Sanity's does.
 */
export const HISTORY_LAG_MS = 1000;

export type Timeline = { entries: Entry[]; index: Map<string, number> };

export type HistoryOptions = {
  /** Where the log is kept; in memory only when unset. */
  file?: string;
  /** The dataset file, whose commits are read from git. */
  contentFile?: string;
  /** The bound (MAX_ENTRIES, MAX_BYTES unless given). */
  limits?: { entries: number; bytes: number };
  /** How long a transaction stays out of answers that run up to now (HISTORY_LAG_MS unless given): see `recent`. */
  lagMs?: number;
};

const lineBytes = (entry: LogEntry) => JSON.stringify(entry).length + 1;

export class History {
  private base: LogBase;
  private entries: LogEntry[];
  private bytes: number;
  private readonly log?: HistoryLog;
  private readonly contentFile?: string;
  private readonly limits: { entries: number; bytes: number };
  /** Revisions the log's documents carry that are not the id of the transaction that wrote them. */
  private readonly aliases = new Map<string, string>();
  private past?: Promise<Past>;
  private cached?: { key: string; timeline: Timeline };
  private failure?: string;
  private readonly lagMs: number;
  /** When each transaction of this process was recorded, by the process's clock (a transaction's time may run ahead of it: clock.ts). */
  private readonly recordedAt = new Map<string, number>();

  private constructor(options: HistoryOptions, log: HistoryLog | undefined, content: LogContent) {
    this.log = log;
    this.contentFile = options.contentFile;
    this.limits = options.limits ?? { entries: MAX_ENTRIES, bytes: MAX_BYTES };
    this.lagMs = options.lagMs ?? HISTORY_LAG_MS;
    this.base = content.base;
    this.entries = content.entries;
    this.bytes = content.entries.reduce((sum, entry) => sum + lineBytes(entry), 0);
  }

  /**
   * The history of `documents` (the content just read): its log when it has one, replayed and checked
   * against them. What changed in the file while no lake was keeping its history (a checkout, an edit by
   * hand, a crash between the file's write and the log's) is returned, to be committed as the file's.
   */
  static async open(options: HistoryOptions, documents: readonly SanityDocument[]): Promise<{ history: History; drift: Change[] }> {
    const log = options.file ? new HistoryLog(options.file) : undefined;
    const stored = await log?.read();
    const fresh: LogContent = { base: baseOf(documents, FILE_AUTHOR), entries: [] };
    const history = new History(options, log, stored ?? fresh);
    if (!stored) return { history, drift: [] };
    const { states, count } = replay(stored.base, stored.entries);
    if (count < stored.entries.length) {
      console.error(`content lake: the history's transaction ${stored.entries[count]!.id} does not apply; it is kept up to the one before`);
      history.entries = stored.entries.slice(0, count);
    }
    const current = contentById(documents);
    for (const [id, doc] of current) {
      const known = states.get(id);
      if (known?._rev && doc._rev && doc._rev !== known._rev && changesBetween(new Map([[id, known]]), new Map([[id, doc]])).length === 0)
        history.aliases.set(doc._rev, known._rev);
    }
    return { history, drift: changesBetween(states, current) };
  }

  /** Keeps a committed transaction's content changes (none: nothing is kept). `exists` tells what the dataset holds after it. */
  async record(transaction: Transaction, exists: (id: string) => boolean): Promise<void> {
    const entry = entryOf({ ...transaction, author: transaction.identity }, exists);
    if (entry.documentIDs.length === 0) return;
    this.entries.push(entry);
    this.bytes += lineBytes(entry);
    this.recordedAt.set(entry.id, Date.now());
    try {
      if (this.entries.length > this.limits.entries || this.bytes > this.limits.bytes) await this.trim();
      else await this.log?.append(entry, () => ({ base: this.base, entries: this.entries }));
      this.failure = undefined;
    } catch (error) {
      // The transaction is committed and kept in memory; the file catches up at the next write that succeeds.
      const failure = `content lake: the history could not be written (${(error as Error).message}); it is kept in memory meanwhile`;
      if (failure !== this.failure) console.error(failure);
      this.failure = failure;
    }
  }

  /** Starts anew from `documents`, as an import that replaces the dataset does. */
  async reset(documents: readonly SanityDocument[]): Promise<void> {
    this.base = baseOf(documents, FILE_AUTHOR);
    this.entries = [];
    this.bytes = 0;
    this.past = undefined;
    await this.log?.rewrite({ base: this.base, entries: [] });
  }

  /** The newest time the history holds, which the dataset's clock must not hand out again. */
  lastTime = (): string => this.entries.at(-1)?.timestamp ?? this.base.time;

  release(): void {
    this.log?.release();
  }

  /** Who `id` is, when the history names them: a commit's author, or one of the pseudo-authors. */
  async author(id: string): Promise<Author | undefined> {
    return PSEUDO_AUTHORS.find((author) => author.id === id) ?? (await this.readPast()).authors.find((author) => author.id === id);
  }

  /** Every transaction, oldest first, and where each id (or alias) sits. */
  async timeline(): Promise<Timeline> {
    const past = await this.readPast();
    const key = `${past.entries.length}:${this.entries.length}:${this.entries.at(-1)?.id ?? ''}:${this.aliases.size}`;
    if (this.cached?.key === key) return this.cached.timeline;
    const entries: Entry[] = [...past.entries, ...this.entries];
    const index = new Map(entries.map((entry, position) => [entry.id, position]));
    for (const [alias, id] of [...past.aliases, ...this.aliases]) if (!index.has(alias) && index.has(id)) index.set(alias, index.get(id)!);
    this.cached = { key, timeline: { entries, index } };
    return this.cached.timeline;
  }

  /** Whether transaction `id` is too new for an answer that runs up to now (see HISTORY_LAG_MS). */
  recent = (id: string): boolean => Date.now() - (this.recordedAt.get(id) ?? 0) < this.lagMs;

  /** The lake serves now: what it committed while opening reached no listener, so no answer may leave it out as too new. */
  forgetOpeningCommits = (): void => this.recordedAt.clear();

  /** Document `id` as transaction `position` left it (null: it did not exist), stamped with the transaction that last wrote it. */
  stateAt({ entries }: Timeline, id: string, position: number): SanityDocument | null {
    const chain: Effects[] = [];
    let state: SanityDocument | null = null;
    let revision: string | undefined;
    for (let at = position; at >= 0; at -= 1) {
      const entry = entries[at]!;
      const effects = entry.effects[id];
      if (!effects) continue;
      revision ??= entry.id;
      if (entry.states && id in entry.states) {
        state = entry.states[id] ?? null;
        break;
      }
      chain.push(effects);
    }
    for (const { apply } of chain.reverse()) state = applied(state, apply);
    return state && { ...state, _rev: revision };
  }

  private readPast(): Promise<Past> {
    this.past ??= readPast(this.base, this.contentFile, new Set(this.entries.map((entry) => entry.id)));
    return this.past;
  }

  /** Folds the oldest transactions into the base, and rewrites the file. */
  private async trim(): Promise<void> {
    let drop = 0;
    let bytes = this.bytes;
    const { entries, bytes: most } = this.limits;
    while (this.entries.length - drop > entries * KEEP || bytes > most * KEEP) bytes -= lineBytes(this.entries[drop++]!);
    const dropped = this.entries.slice(0, drop);
    this.base = { ...baseOf([...replay(this.base, dropped).states.values()], RETENTION_AUTHOR), time: dropped.at(-1)!.timestamp };
    for (const entry of dropped) this.recordedAt.delete(entry.id);
    this.entries = this.entries.slice(drop);
    this.bytes = bytes;
    this.past = undefined;
    await this.log?.rewrite({ base: this.base, entries: this.entries });
  }
}

function baseOf(documents: readonly SanityDocument[], author: typeof FILE_AUTHOR | typeof RETENTION_AUTHOR): LogBase {
  return { time: lakeTime(new Date()), author, documents: [...contentById(documents).values()] };
}
