import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One process per embedded store: PGlite is a single-process database, and two servers writing one
 * data directory can corrupt it. The lock is a file holding the owner's pid. A lock whose process is
 * gone (killed with SIGKILL, a power loss) is stale and taken over, so a restart is never blocked.
 */

/** What a lock guards, for its message: a name and what to do when another process holds it. */
export type LockedThing = { name: string; advice: string };

const EMBEDDED_STORE: LockedThing = {
  name: 'The embedded store',
  advice: 'One server per DATA_DIR: stop that process, or give this server another DATA_DIR. Nothing was opened or changed.',
};

/** Thrown when another live process holds the store; the message names the directory and the pid. */
export class StoreLockedError extends Error {
  readonly pid: number;

  constructor(dir: string, pid: number, file: string, what: LockedThing = EMBEDDED_STORE) {
    super(`${what.name} ${dir} is in use by process ${pid} (lock file ${file}). ${what.advice}`);
    this.name = 'StoreLockedError';
    this.pid = pid;
  }
}

function holderOf(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** A process that exists and is not a zombie (a killed server its parent has not reaped yet). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; the name before it is in parentheses and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // No /proc (not Linux): the signal check stands.
    return true;
  }
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Takes the lock `file` of store `dir` for this process, or throws StoreLockedError. Returns the
 * release function (also run when the process exits normally). A lock naming this very pid is stale
 * too: a container restarted with the same pid.
 */
export function lockStore(dir: string, file: string, what: LockedThing = EMBEDDED_STORE): () => void {
  const mine = `${file}.${process.pid}`;
  mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // Written in full under a private name, then linked into place: link() fails if the lock exists,
    // and a reader never sees a half-written pid.
    writeFileSync(mine, `${process.pid}\n`);
    try {
      linkSync(mine, file);
      unlinkSync(mine);
      const release = () => {
        process.off('exit', release);
        if (holderOf(file) === process.pid) removeIfPresent(file);
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      removeIfPresent(mine);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(file);
    if (holder !== null && holder !== process.pid && isRunning(holder)) throw new StoreLockedError(dir, holder, file, what);
    // Stale. Re-read just before removing, so a lock another starting server took meanwhile stays.
    if (holderOf(file) === holder) removeIfPresent(file);
  }
  throw new Error(`could not take the lock ${file} of ${what.name.toLowerCase()} ${dir}`);
}
