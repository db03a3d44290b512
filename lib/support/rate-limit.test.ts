import { describe, expect, it } from 'vitest';

import { createRateLimiter } from './rate-limit';

describe('createRateLimiter', () => {
  it('allows max attempts per window and address, then refuses until the window moves on', () => {
    let now = 0;
    const limiter = createRateLimiter(2, 1000, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([true, true, false]);
    expect(limiter.take('b')).toBe(true);
    now = 999;
    expect(limiter.take('a')).toBe(false);
    now = 1001;
    expect(limiter.take('a')).toBe(true);
  });

  it('is a sliding window: each accepted attempt frees its slot exactly one window later', () => {
    let now = 0;
    const limiter = createRateLimiter(3, 100, () => now);
    const at = (time: number) => {
      now = time;
      return limiter.take('a');
    };
    expect([at(0), at(10), at(20), at(30)]).toEqual([true, true, true, false]);
    // Refused attempts take no slot: the one of t=0 frees at t=100, the one of t=10 at t=110.
    expect([at(99), at(100), at(101), at(110), at(111)]).toEqual([false, true, false, true, false]);
    expect([at(120), at(199), at(200)]).toEqual([true, false, true]);
  });

  it('keeps counting exactly with a very large max', () => {
    let now = 0;
    const limiter = createRateLimiter(50_000, 1000, () => now);
    for (let i = 0; i < 50_000; i += 1) expect(limiter.take('load')).toBe(true);
    expect(limiter.take('load')).toBe(false);
    now = 1001;
    expect(limiter.take('load')).toBe(true);
  });

  it('forgets addresses whose attempts have all left the window', () => {
    let now = 0;
    const limiter = createRateLimiter(5, 1000, () => now);
    for (let i = 0; i < 100; i += 1) limiter.take(`10.0.0.${i}`);
    expect(limiter.size).toBe(100);
    now = 1500;
    limiter.take('10.0.1.1');
    expect(limiter.size).toBe(1);
  });

  it('refuses everything when max is below one', () => {
    expect(createRateLimiter(0, 1000).take('a')).toBe(false);
  });
});
