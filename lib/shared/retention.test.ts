import { describe, expect, it } from 'vitest';

import { RETENTION_DEFAULTS, RETENTION_FIELDS, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS, toRetention } from './retention';

const settings = (answered: unknown, unanswered: unknown) => ({
  [RETENTION_FIELDS.answeredDays]: answered,
  [RETENTION_FIELDS.unansweredDays]: unanswered,
});

describe('toRetention: the days Site settings give, defaults where they give none', () => {
  it('defaults to 30 days once answered and a year if never answered', () => {
    expect(RETENTION_DEFAULTS).toEqual({ answeredDays: 30, unansweredDays: 365 });
  });

  it.each([null, undefined, {}, settings(null, null), settings(undefined, undefined)])('settings %j: the defaults', (value) => {
    expect(toRetention(value)).toEqual(RETENTION_DEFAULTS);
  });

  it('takes each setting on its own', () => {
    expect(toRetention(settings(7, 90))).toEqual({ answeredDays: 7, unansweredDays: 90 });
    expect(toRetention(settings(7, null))).toEqual({ answeredDays: 7, unansweredDays: 365 });
    expect(toRetention(settings(undefined, 90))).toEqual({ answeredDays: 30, unansweredDays: 90 });
  });

  it('takes both bounds, and an unanswered period shorter than the answered one', () => {
    expect(toRetention(settings(RETENTION_MIN_DAYS, RETENTION_MAX_DAYS))).toEqual({ answeredDays: 1, unansweredDays: 3650 });
    expect(toRetention(settings(400, 10))).toEqual({ answeredDays: 400, unansweredDays: 10 });
  });

  it.each([0, -1, 3651, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '30', true])(
    'a value the Studio refuses (%s) gives the default, never a sweep of everything',
    (value) => {
      expect(toRetention(settings(value, value))).toEqual(RETENTION_DEFAULTS);
    },
  );

  it('reads nothing from the object prototype', () => {
    expect(toRetention(Object.create({ [RETENTION_FIELDS.answeredDays]: 5 }) as Record<string, unknown>)).toEqual(RETENTION_DEFAULTS);
  });
});
