/**
 * A dataset file in Sanity's NDJSON export format, kept by one writer: each write goes to a temporary
 * file beside it, is synced, and is renamed over it, so a reader (or a process killed mid-write) sees the
 * old file or the new one, never half of one. Documents that did not change keep their line as it was,
 * so `git diff` shows the documents a write changed and nothing else. The lock file names the one process
 * that may write; a lock whose process is gone is taken over.
 */
import { readdirSync, unlinkSync } from 'node:fs';
import { open, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';

import { lockStore } from '../support/store-lock.ts';
import { parseNdjson, type SanityDocument } from './documents.ts';

/** What a file was when this process last read or wrote it: a different one was written by someone else. */
type Signature = string;

const signatureOf = (info: { ino: number; size: number; mtimeMs: number }): Signature => `${info.ino}:${info.size}:${info.mtimeMs}`;

export class NdjsonFile {
  readonly file: string;
  private signature: Signature | null = null;
  private lines = new WeakMap<SanityDocument, string>();
  private unlock: (() => void) | undefined;
  private writes = 0;

  constructor(file: string) {
    this.file = file;
  }

  /** The documents in the file (none when it does not exist yet). Throws, naming the line, when it cannot be parsed. */
  async read(): Promise<SanityDocument[]> {
    let text: string;
    let info;
    try {
      info = await stat(this.file);
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.signature = null;
      return [];
    }
    const documents = parseNdjson(text, this.file);
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    documents.forEach((doc, index) => this.lines.set(doc, lines[index]!));
    this.signature = signatureOf(info);
    return documents;
  }

  /** Whether `doc` is, unchanged, a line of the file as last read or written. */
  holds(doc: SanityDocument): boolean {
    return this.lines.has(doc);
  }

  async exists(): Promise<boolean> {
    try {
      await stat(this.file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return false;
    }
  }

  /** True when the file on disk is not the one this process last read or wrote: edited by hand, or by another program. */
  async changedOnDisk(): Promise<boolean> {
    try {
      return signatureOf(await stat(this.file)) !== this.signature;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return this.signature !== null;
    }
  }

  /** Replaces the file with `documents`, atomically; the first write takes the writer's lock (throws if another process holds it). */
  async write(documents: readonly SanityDocument[]): Promise<void> {
    this.unlock ??= this.lock();
    // Sorted by _id, as `npm run content:export` writes it: a new draft lands beside its document.
    const sorted = [...documents].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
    const lines = sorted.map((doc) => this.lines.get(doc) ?? JSON.stringify(doc));
    const text = lines.join('\n') + (lines.length ? '\n' : '');
    const temp = `${this.file}.${process.pid}.${++this.writes}.tmp`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.file);
    await syncDirectory(path.dirname(this.file));
    this.signature = signatureOf(await stat(this.file));
    // What the file holds now: a document left out of it (moved to another file) is no longer one of its lines.
    this.lines = new WeakMap(sorted.map((doc, index) => [doc, lines[index]!]));
  }

  private lock(): () => void {
    const release = lockStore(this.file, `${this.file}.lock`, {
      name: 'The dataset',
      advice: 'One server edits a dataset file at a time: stop that process, or edit through its Studio. Nothing was written.',
    });
    removeStaleTemps(this.file);
    return release;
  }

  release(): void {
    this.unlock?.();
    this.unlock = undefined;
  }
}

/** The rename is durable once the directory's entry is on disk too. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Temporary files of this file's writes that never finished: their writer (named in the file name) is gone. */
function removeStaleTemps(file: string): void {
  const dir = path.dirname(file);
  const pattern = new RegExp(`^${path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.\\d+\\.tmp$`);
  for (const name of readdirSync(dir)) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!pid || (pid !== process.pid && alive(pid))) continue;
    try {
      unlinkSync(path.join(dir, name));
    } catch {
      // Gone already.
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
