import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createRefusalLog, REFUSAL_LOG_WINDOW_MS } from './refusal-log';

describe('createRefusalLog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the first refusal at once and a flood as one summary line per window', () => {
    const lines: string[] = [];
    const log = createRefusalLog<'Invalid signature' | 'Body is too large'>('POST /x', { write: (line) => lines.push(line) });

    log('Invalid signature');
    for (let i = 0; i < 10_000; i += 1) log(i % 4 === 0 ? 'Body is too large' : 'Invalid signature');
    expect(lines).toEqual(['POST /x refused: Invalid signature']);

    vi.advanceTimersByTime(REFUSAL_LOG_WINDOW_MS);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('POST /x: 10000 more refused in the last 60 s (2500 × Body is too large; 7500 × Invalid signature)');

    // A quiet window closes the log; the next refusal is written at once again.
    vi.advanceTimersByTime(REFUSAL_LOG_WINDOW_MS);
    expect(lines).toHaveLength(2);
    log('Body is too large');
    expect(lines[2]).toBe('POST /x refused: Body is too large');
  });
});
