import { existsSync } from 'node:fs';

/**
 * A server whose clock runs ahead of the machine's, for a day that must come (a version of the policy
 * taking effect): Debian's libfaketime, preloaded into the process, adds a fixed offset to every reading
 * of the wall clock from its start (Date, performance.timeOrigin, PGlite's now()), while timers keep the
 * real monotonic clock, so nothing in the product changes for a test. `bash .ci/run` installs it.
 *
 * Only relative imports with real extensions and packages: plain `node` scripts (bench/) import this.
 */

/** Debian's multiarch folder of this machine's libraries. */
const TRIPLET = process.arch === 'arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu';
/** The multithreaded build: the server runs PGlite in a worker thread. */
export const LIBFAKETIME = `/usr/lib/${TRIPLET}/faketime/libfaketimeMT.so.1`;

export const fakeClockAvailable = () => existsSync(LIBFAKETIME);

/** The environment of a process whose clock reads `offsetMs` ahead (whole seconds, as libfaketime takes them). */
export function clockAhead(offsetMs: number): Record<string, string> {
  if (!fakeClockAvailable()) throw new Error(`${LIBFAKETIME} is missing: apt-get install faketime (bash .ci/run does)`);
  return {
    LD_PRELOAD: LIBFAKETIME,
    FAKETIME: `+${Math.round(offsetMs / 1000)}`,
    // Timers and performance.now() keep the real pace: only the wall clock is moved.
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
}

/** An offset in whole seconds, and when (on this machine's clock) a process started with it reaches `instant`. */
export function offsetToReach(instant: number, inMs: number): { offsetMs: number; realAt: number } {
  const offsetMs = Math.round((instant - (Date.now() + inMs)) / 1000) * 1000;
  return { offsetMs, realAt: instant - offsetMs };
}
