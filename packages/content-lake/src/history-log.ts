/**
 * The history's file: NDJSON, its first line the base (every content document as the log's first
 * transaction found it), then one line per transaction, appended and synced before the transaction is
 * answered. A transaction is one write of one line: a process killed mid-write leaves at most a torn last
 * line, which the next open drops. A rewrite (the bound's trimming, or after a failed append) replaces the
 * file atomically. One process writes it, under a lock like the dataset's. A file that cannot be read
 * (edited by hand, a disk error) is moved aside with its name and date, never overwritten.
 */
import { open, readFile, rename } from 'node:fs/promises';

import { lockStore } from '@school-site/guards';
import { removeStaleTemps, writeAtomically } from './atomic-file.ts';
import { lakeTime } from './clock.ts';
import type { SanityDocument } from './documents.ts';
import type { ListedEvent } from './history-events.ts';
import type { Effects } from './mendoza.ts';

export type { Effects };

/** One committed transaction, as Sanity's transactions API answers it, with the events it made. */
export type LogEntry = {
  id: string;
  timestamp: string;
  author: string;
  documentIDs: string[];
  mutations: unknown[];
  effects: Record<string, Effects>;
  events: ListedEvent[];
};

/**
 * The content when the log starts, and who is credited with it: the file as the lake found it, or the
 * oldest transactions that the bound folded into it.
 */
export type LogBase = { time: string; author: string; documents: SanityDocument[] };

export type LogContent = { base: LogBase; entries: LogEntry[] };

const isEntry = (value: unknown): value is LogEntry =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as LogEntry).id === 'string' &&
  typeof (value as LogEntry).effects === 'object';
const isBase = (value: unknown): value is { base: LogBase } =>
  typeof value === 'object' && value !== null && Array.isArray((value as { base?: LogBase }).base?.documents);

export class HistoryLog {
  readonly file: string;
  private unlock: (() => void) | undefined;
  /** Whether the file lacks something memory has (a torn line, a failed append): the next write rewrites it. */
  private stale = true;

  constructor(file: string) {
    this.file = file;
  }

  /** The log as the file holds it, or undefined when there is none yet (or it had to be moved aside). */
  async read(): Promise<LogContent | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const lines = text.split('\n');
    // Only a last line without its newline can be torn: an append writes the line and its newline at once.
    const torn = lines.pop() !== '';
    this.stale = torn;
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return undefined;
      }
    });
    const [head, ...rest] = parsed;
    if (!isBase(head) || !rest.every(isEntry)) {
      const aside = `${this.file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(this.file, aside);
      console.error(`content lake: the history ${this.file} could not be read; it was moved to ${aside}, and history starts anew`);
      return undefined;
    }
    // A log written before times had microseconds (clock.ts) is read in today's format.
    const entries = rest.map((entry) => ({
      ...entry,
      timestamp: lakeTime(entry.timestamp),
      events: entry.events.map((listed) => ({ ...listed, event: { ...listed.event, timestamp: lakeTime(listed.event.timestamp) } })),
    }));
    return { base: { ...head.base, time: lakeTime(head.base.time) }, entries };
  }

  /** Adds `entry` to the file; when the file lacks earlier ones (see `stale`), writes `content` whole instead. */
  async append(entry: LogEntry, content: () => LogContent): Promise<void> {
    this.unlock ??= this.lock();
    try {
      if (this.stale) return await this.rewrite(content());
      const handle = await open(this.file, 'a');
      try {
        await handle.write(`${JSON.stringify(entry)}\n`);
        await handle.datasync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      this.stale = true;
      throw error;
    }
  }

  /** Replaces the file with `content`, atomically. */
  async rewrite({ base, entries }: LogContent): Promise<void> {
    this.unlock ??= this.lock();
    const lines = [JSON.stringify({ base }), ...entries.map((entry) => JSON.stringify(entry))];
    await writeAtomically(this.file, `${lines.join('\n')}\n`);
    this.stale = false;
  }

  release(): void {
    this.unlock?.();
    this.unlock = undefined;
  }

  private lock(): () => void {
    const release = lockStore(this.file, `${this.file}.lock`, {
      name: 'The content history',
      advice: 'One server keeps a dataset and its history at a time: stop that process. Nothing was written.',
    });
    removeStaleTemps(this.file);
    return release;
  }
}
