import { describe, expect, it } from 'vitest';

import { LakeClock, lakeTime, microsOf } from './clock';

describe('the lake clock', () => {
  it('writes every time one way, with microseconds, whatever precision it was given', () => {
    expect(lakeTime('2026-11-20T10:00:00Z')).toBe('2026-11-20T10:00:00.000000Z');
    expect(lakeTime('2026-11-20T10:00:00.5Z')).toBe('2026-11-20T10:00:00.500000Z');
    expect(lakeTime('2026-11-20T10:00:00.123456789Z')).toBe('2026-11-20T10:00:00.123456Z');
    expect(lakeTime('2026-11-20T11:00:00.25+01:00')).toBe('2026-11-20T10:00:00.250000Z');
    expect(lakeTime(new Date('2026-11-20T10:00:00.042Z'))).toBe('2026-11-20T10:00:00.042000Z');
    expect(lakeTime('not a time')).toBe('not a time');
    expect(microsOf('2026-11-20T10:00:00.000001Z') - microsOf('2026-11-20T10:00:00Z')).toBe(1);
  });

  it('hands out strictly increasing times a millisecond apart when the wall clock stands still or goes back', () => {
    let now = microsOf('2026-11-27T18:09:20.315123Z');
    const clock = new LakeClock(() => now);
    expect(clock.next()).toBe('2026-11-27T18:09:20.315123Z');
    expect(clock.next()).toBe('2026-11-27T18:09:20.316123Z');
    now -= 5_000_000;
    expect(clock.next()).toBe('2026-11-27T18:09:20.317123Z');
    now += 10_000_000;
    expect(clock.next()).toBe('2026-11-27T18:09:25.315123Z');
    // A log written before a restart: nothing at or before its newest time again.
    clock.observe('2026-11-27T19:00:00Z');
    expect(clock.next()).toBe('2026-11-27T19:00:00.001000Z');
    clock.observe(undefined);
    clock.observe('garbage');
    expect(clock.next()).toBe('2026-11-27T19:00:00.002000Z');
  });
});
