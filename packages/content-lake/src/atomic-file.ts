/**
 * Files replaced whole and atomically: written to a temporary file beside the target, synced, renamed over
 * it, and the directory synced, so a reader (or a process killed mid-write) sees the old file or the new
 * one, never half of one, and the rename survives a power loss. The temporary file names its writer's pid,
 * so the next writer can clear what a killed one left.
 */
import { readdirSync, unlinkSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';

let writes = 0;

export async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${++writes}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await syncDirectory(path.dirname(file));
}

/** A rename or a new file is durable once the directory's entry is on disk too. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Temporary files of `file`'s writes that never finished: their writer (named in the file name) is gone. */
export function removeStaleTemps(file: string): void {
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
