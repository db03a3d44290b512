import { describe, expect, it } from 'vitest';

import { createCeiling, createRateLimiter } from './rate-limit';

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

describe('createRateLimiter memory', () => {
  it('remembers at most maxKeys addresses within one window, forgetting the oldest first', () => {
    const limiter = createRateLimiter(1, 60_000, () => 0, 3);
    for (const address of ['a', 'b', 'c', 'd']) expect(limiter.take(address)).toBe(true);
    expect(limiter.size).toBe(3);
    // 'a' was forgotten to make room; 'd' is still counted.
    expect(limiter.take('a')).toBe(true);
    expect(limiter.take('d')).toBe(false);
  });
});

describe('createCeiling', () => {
  it('allows max reservations per window across everyone, then refuses until they age out', () => {
    let now = 0;
    const ceiling = createCeiling(3, 1000, () => now);
    expect([ceiling.reserve(), ceiling.reserve(), ceiling.reserve()].every(Boolean)).toBe(true);
    expect(ceiling.reserve()).toBeNull();
    now = 999;
    expect(ceiling.reserve()).toBeNull();
    now = 1000;
    expect(ceiling.reserve()).not.toBeNull();
  });

  it('takes back a place whose write stored nothing', () => {
    const ceiling = createCeiling(1, 1000, () => 0);
    const giveBack = ceiling.reserve();
    expect(ceiling.reserve()).toBeNull();
    giveBack!();
    expect(ceiling.used).toBe(0);
    expect(ceiling.reserve()).not.toBeNull();
  });

  it('slides in tenths of the window and ignores a give-back after its place left the window', () => {
    let now = 0;
    const ceiling = createCeiling(2, 1000, () => now);
    const first = ceiling.reserve();
    now = 500;
    ceiling.reserve();
    expect(ceiling.reserve()).toBeNull();
    now = 1000;
    expect(ceiling.used).toBe(1);
    first!();
    expect(ceiling.used).toBe(1);
    now = 5000;
    expect(ceiling.used).toBe(0);
  });
});
