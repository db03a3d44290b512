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

/** libfaketime's units of a relative FAKETIME ("+365d", "-2h", "+90"): seconds unless a suffix says. */
const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400, y: 365 * 86_400 };

/**
 * How far ahead of the machine's clock this process reads, when it was started under libfaketime with a
 * relative offset (the suite run with its clock moved: docs/testing.md); 0 otherwise. An absolute
 * FAKETIME ("@2030-01-01 …") is not one the suite is run with, so it is refused rather than guessed.
 */
export function processClockOffsetMs(env: Partial<NodeJS.ProcessEnv> = process.env): number {
  if (!env.LD_PRELOAD?.includes('libfaketime') || !env.FAKETIME) return 0;
  const match = /^([+-]\d+(?:\.\d+)?)([smhdy]?)$/.exec(env.FAKETIME.trim());
  if (!match) throw new Error(`FAKETIME="${env.FAKETIME}": the suite takes a relative offset, such as +365d`);
  return Math.round(Number(match[1]) * UNIT_SECONDS[match[2]!]! * 1000);
}

/** `env` without libfaketime, for a program that cannot run under its preload (Chromium hangs in it). */
export function withoutFakeClock<Env extends Partial<NodeJS.ProcessEnv>>(env: Env): Env {
  const rest = { ...env };
  for (const name of Object.keys(rest)) if (name === 'LD_PRELOAD' || name.startsWith('FAKETIME')) delete rest[name];
  const others = env.LD_PRELOAD?.split(/[: ]/).filter((library) => library && !library.includes('libfaketime'));
  return others?.length ? { ...rest, LD_PRELOAD: others.join(':') } : rest;
}

/**
 * The environment of a process whose clock reads `offsetMs` ahead of this one's (whole seconds, as
 * libfaketime takes them): added to this process's own offset, as a child inherits the preload.
 */
export function clockAhead(offsetMs: number): Record<string, string> {
  if (!fakeClockAvailable()) throw new Error(`${LIBFAKETIME} is missing: apt-get install faketime (bash .ci/run does)`);
  return {
    LD_PRELOAD: LIBFAKETIME,
    FAKETIME: `+${Math.round((processClockOffsetMs() + offsetMs) / 1000)}`,
    // Timers and performance.now() keep the real pace: only the wall clock is moved.
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
}

/** An offset in whole seconds, and when (on this machine's clock) a process started with it reaches `instant`. */
export function offsetToReach(instant: number, inMs: number): { offsetMs: number; realAt: number } {
  const offsetMs = Math.round((instant - (Date.now() + inMs)) / 1000) * 1000;
  return { offsetMs, realAt: instant - offsetMs };
}
