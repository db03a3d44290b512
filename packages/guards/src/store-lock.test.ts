import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { lockStore, StoreLockedError } from './store-lock';

/** The lock of one embedded store: one process at a time, never blocked by a dead one. */
let dir: string;
let file: string;

beforeEach(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), 'store-lock-')), 'pglite');
  file = `${dir}.lock`;
});
afterEach(async () => rm(path.dirname(dir), { recursive: true, force: true }));

describe('lockStore', () => {
  it('writes this pid and removes the file on release, only while it is still ours', () => {
    const release = lockStore(dir, file);
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(existsSync(file)).toBe(false);
    // Nothing of its own is left behind either.
    expect(existsSync(`${file}.${process.pid}`)).toBe(false);
  });

  it('refuses a lock held by another live process, naming the store and the pid, and leaves it as it was', async () => {
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await writeFile(file, `${holder.pid}\n`);
      expect(() => lockStore(dir, file)).toThrow(StoreLockedError);
      expect(() => lockStore(dir, file)).toThrow(`The embedded store ${dir} is in use by process ${holder.pid} (lock file ${file}).`);
      expect(readFileSync(file, 'utf8').trim()).toBe(String(holder.pid));
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
    }
    // Dead now: the lock is stale and taken over.
    lockStore(dir, file)();
  });

  it.each([
    ['this very pid (a container restarted with the same pid)', () => `${process.pid}\n`],
    ['an unreadable pid', () => 'not a pid\n'],
    ['an empty file', () => ''],
  ])('takes over a lock holding %s', async (_, content) => {
    await writeFile(file, content());
    const release = lockStore(dir, file);
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
    release();
  });
});
