/**
 * A file's saves, followed as they happen: the dataset takes in a hand edit of its file with no request
 * to wait for. The directory is watched, not the file: the file is replaced by a rename (the lake's own
 * writes, git's, most editors'), which a watch of the file itself stops seeing.
 */
import { watch } from 'node:fs';
import path from 'node:path';

/** An editor's save can be several writes (truncate, write, rename a backup): the file is read once they have settled. */
export const SETTLE_MS = 50;

/** Calls `saved` once the file's writes have settled, after each save; returns what stops it. Nothing keeps the process alive for it. */
export function watchSaves(file: string, saved: () => Promise<void>): () => void {
  const name = path.basename(file);
  let settling: NodeJS.Timeout | undefined;
  const readSave = () =>
    void saved().catch((error: unknown) => console.error(`content lake: a hand edit of ${file} could not be taken in`, error));
  let watcher;
  try {
    watcher = watch(path.dirname(file), (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(settling);
      settling = setTimeout(readSave, SETTLE_MS).unref();
    });
  } catch (error) {
    console.error(`content lake: ${file} cannot be watched (${(error as Error).message}); a hand edit is taken in at the next request`);
    return () => undefined;
  }
  watcher.unref();
  watcher.on('error', (error) => {
    console.error(`content lake: watching ${file} stopped (${error.message}); a hand edit is taken in at the next request`);
    watcher.close();
  });
  return () => {
    watcher.close();
    clearTimeout(settling);
  };
}
