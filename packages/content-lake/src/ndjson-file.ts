/**
 * A dataset file in Sanity's NDJSON export format, kept by one writer: each write goes to a temporary
 * file beside it, is synced, and is renamed over it, so a reader (or a process killed mid-write) sees the
 * old file or the new one, never half of one. Documents that did not change keep their line as it was,
 * so `git diff` shows the documents a write changed and nothing else. The lock file names the one process
 * that may write; a lock whose process is gone is taken over.
 */
import { readFile, stat } from 'node:fs/promises';

import { lockStore } from '@school-site/guards';
import { removeStaleTemps, writeAtomically } from './atomic-file.ts';
import { isContentId, parseNdjson, type SanityDocument } from './documents.ts';
import { LakeError } from './errors.ts';
import type { Change } from './transaction.ts';

/** What a file was when this process last read or wrote it: a different one was written by someone else. */
type Signature = string;

const signatureOf = (info: { ino: number; size: number; mtimeMs: number }): Signature => `${info.ino}:${info.size}:${info.mtimeMs}`;

export class NdjsonFile {
  readonly file: string;
  private signature: Signature | null = null;
  private lines = new WeakMap<SanityDocument, string>();
  private unlock: (() => void) | undefined;

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
    // Sorted by _id, as `npm run content -- export` writes it: a new draft lands beside its document.
    const sorted = [...documents].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
    const lines = sorted.map((doc) => this.lines.get(doc) ?? JSON.stringify(doc));
    await writeAtomically(this.file, lines.join('\n') + (lines.length ? '\n' : ''));
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

/**
 * Writes a transaction's documents (`next`, the whole dataset after it) to the files it touched: system
 * documents to `system`, content to `content`. System documents written into the content file by hand move
 * out of it: into the system file first, so that a crash in between leaves them in both files, not in neither.
 */
export async function writeThrough(
  files: { content?: NdjsonFile; system?: NdjsonFile },
  previous: readonly SanityDocument[],
  next: SanityDocument[],
  changes: readonly Change[],
): Promise<void> {
  const touches = (content: boolean) => changes.some(({ id }) => isContentId(id) === content);
  const strays = previous.some((doc) => !isContentId(doc._id) && files.content?.holds(doc));
  try {
    if (files.system && (touches(false) || strays)) await files.system.write(next.filter((doc) => !isContentId(doc._id)));
    if (files.content && (touches(true) || strays)) await files.content.write(next.filter((doc) => isContentId(doc._id)));
  } catch (error) {
    throw new LakeError(503, {
      error: { type: 'storageError', description: `The dataset could not be written: ${(error as Error).message}` },
    });
  }
}
