import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { fakeClockAvailable, LIBFAKETIME, processClockOffsetMs, withoutFakeClock } from './fake-clock.ts';

const DAY_MS = 86_400_000;
const moved = (FAKETIME: string) => ({ LD_PRELOAD: LIBFAKETIME, FAKETIME });

describe('a clock moved ahead', () => {
  it("reads this process's offset from libfaketime's relative FAKETIME, and none without its preload", () => {
    expect(processClockOffsetMs(moved('+365d'))).toBe(365 * DAY_MS);
    expect(processClockOffsetMs(moved('+1y'))).toBe(365 * DAY_MS);
    expect(processClockOffsetMs(moved('+90'))).toBe(90_000);
    expect(processClockOffsetMs(moved('-2h'))).toBe(-7_200_000);
    expect(processClockOffsetMs({ FAKETIME: '+365d' })).toBe(0);
    expect(processClockOffsetMs({})).toBe(0);
    expect(() => processClockOffsetMs(moved('@2031-01-01 00:00:00'))).toThrow(/relative offset/);
  });

  it('leaves the preload out for Chromium, and any other preload in', () => {
    const env = { ...moved('+365d'), FAKETIME_DONT_FAKE_MONOTONIC: '1', HOME: '/root' };
    expect(withoutFakeClock(env)).toEqual({ HOME: '/root' });
    expect(withoutFakeClock({ ...env, LD_PRELOAD: `/lib/a.so:${LIBFAKETIME}` })).toEqual({ HOME: '/root', LD_PRELOAD: '/lib/a.so' });
  });

  it.runIf(fakeClockAvailable())("moves a child's clock from its parent's, not from the machine's", () => {
    // A parent a year ahead starts a child an hour ahead of itself: the child reads a year and an hour ahead.
    const child = `import('./testkit/fake-clock.ts').then(({ clockAhead }) => process.stdout.write(require('node:child_process')
      .execFileSync(process.execPath, ['-p', 'Date.now()'], { env: { ...process.env, ...clockAhead(3_600_000) } })))`;
    // The machine's clock, also when this suite runs moved ahead.
    const before = Date.now() - processClockOffsetMs();
    const read = Number(execFileSync(process.execPath, ['-e', child], { env: { ...process.env, ...moved('+365d') }, encoding: 'utf8' }));
    const ahead = read - before;
    expect(ahead).toBeGreaterThanOrEqual(365 * DAY_MS + 3_600_000);
    expect(ahead).toBeLessThan(365 * DAY_MS + 3_600_000 + 60_000);
  });
});
