import type { BrowserContext } from '@playwright/test';

import { processClockOffsetMs } from './fake-clock.ts';

/**
 * The page's clock moved as far as this process's, when the suite runs with its clock moved ahead
 * (docs/testing.md): Chromium cannot run under libfaketime's preload, so the pages get the servers' date
 * from an init script instead. Only `Date` moves; timers and `performance.now()` keep the real pace, as
 * they do on the servers (FAKETIME_DONT_FAKE_MONOTONIC).
 *
 * Not Playwright's `clock.install`: it replays its log against the page's real `Date.now()` with the
 * times this process read, so in a process whose clock is moved a page's time stands still from the
 * install until the page loads.
 */
export async function followProcessClock(context: BrowserContext): Promise<void> {
  const offsetMs = processClockOffsetMs();
  if (offsetMs) await context.addInitScript(shiftDate, offsetMs);
}

/** Runs in the page, before its own scripts. */
function shiftDate(offsetMs: number) {
  const RealDate = Date;
  const now = () => RealDate.now() + offsetMs;
  class MovedDate extends RealDate {
    constructor(...args: ConstructorParameters<DateConstructor> | []) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static override now() {
      return now();
    }
  }
  // Date() called without `new` is the current time as a string.
  globalThis.Date = new Proxy(MovedDate, { apply: () => new RealDate(now()).toString() }) as DateConstructor;
}
