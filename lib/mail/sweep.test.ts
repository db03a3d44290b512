import { beforeEach, describe, expect, it, vi } from 'vitest';

import { SWEEP_ROWS } from './pace';
import { sweepStore } from './sweep';

/** The store's two sweeps and the settings' read, standing in: what each was called with, in order. */
const calls = vi.hoisted(() => ({ log: [] as string[], settings: async () => ({ answeredDays: 7, unansweredDays: 90 }) }));
vi.mock('@/lib/store/outbox', () => ({
  forgetUnconfirmed: async (rows: number) => void calls.log.push(`forgetUnconfirmed ${rows}`),
}));
vi.mock('@/lib/store/back-office', () => ({
  sweepRequests: async (answered: number, unanswered: number, rows: number) =>
    void calls.log.push(`sweepRequests ${answered} ${unanswered} ${rows}`),
}));
vi.mock('@/lib/content/read-retention', () => ({ readRetention: () => calls.settings() }));

beforeEach(() => {
  calls.log.splice(0);
  calls.settings = async () => ({ answeredDays: 7, unansweredDays: 90 });
});

describe('sweepStore', () => {
  it('forgets unconfirmed addresses, then requests past the days the settings keep them, a batch of each', async () => {
    await sweepStore();
    expect(calls.log).toEqual([`forgetUnconfirmed ${SWEEP_ROWS}`, `sweepRequests 7 90 ${SWEEP_ROWS}`]);
  });

  it('settings that cannot be read skip the requests, not the addresses, and are reported once while they fail', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    calls.settings = async () => {
      throw new Error('the lake is away');
    };
    await sweepStore();
    await sweepStore();
    expect(calls.log).toEqual([`forgetUnconfirmed ${SWEEP_ROWS}`, `forgetUnconfirmed ${SWEEP_ROWS}`]);
    expect(errors).toHaveBeenCalledTimes(1);

    calls.settings = async () => ({ answeredDays: 30, unansweredDays: 365 });
    await sweepStore();
    expect(calls.log.at(-1)).toBe(`sweepRequests 30 365 ${SWEEP_ROWS}`);
    errors.mockRestore();
  });
});
