import { describe, expect, it } from 'vitest';

import { inEffect, isCalendarDate, mayNamePage, mayNameVersion, pageCount, versionAt } from './policy-archive';

const DATES = ['2026-12-15', '2026-12-01', '2026-11-22'];
const TODAY = '2026-12-20';

describe('the policy versions a date names', () => {
  it('knows a calendar day from anything else', () => {
    expect(['2026-11-22', '2024-02-29', '2000-01-01'].every(isCalendarDate)).toBe(true);
    for (const value of [
      '2026-02-30',
      '2025-02-29',
      '2026-13-01',
      '2026-00-10',
      '26-11-22',
      '2026-1-22',
      '..',
      '',
      'x'.repeat(5000),
      '2026-11-22 ',
    ])
      expect(isCalendarDate(value), value).toBe(false);
  });

  it('shows a version on its own date, and the current one at /privacy', () => {
    expect(versionAt('2026-12-01', DATES, TODAY)).toEqual({ kind: 'version', date: '2026-12-01' });
    expect(versionAt('2026-11-22', DATES, TODAY)).toEqual({ kind: 'version', date: '2026-11-22' });
    expect(versionAt('2026-12-15', DATES, TODAY)).toEqual({ kind: 'current' });
  });

  it('sends any other day since the first version to the version in effect that day', () => {
    expect(versionAt('2026-11-30', DATES, TODAY)).toEqual({ kind: 'in-effect', date: '2026-11-22' });
    expect(versionAt('2026-12-14', DATES, TODAY)).toEqual({ kind: 'in-effect', date: '2026-12-01' });
    expect(versionAt('2026-12-16', DATES, TODAY)).toEqual({ kind: 'current' });
    expect(versionAt(TODAY, DATES, TODAY)).toEqual({ kind: 'current' });
  });

  it('names nothing before the first version, after today, or with no record', () => {
    for (const value of ['2026-11-21', '2026-12-21', '2027-01-01', '2026-02-30', '..'])
      expect(versionAt(value, DATES, TODAY), value).toEqual({ kind: 'not-found' });
    expect(versionAt('2026-11-22', [], TODAY)).toEqual({ kind: 'not-found' });
  });

  it('shows a version published ahead of its day on its own date, and names no other day after today', () => {
    const ahead = ['2027-01-01', ...DATES];
    expect(versionAt('2027-01-01', ahead, TODAY)).toEqual({ kind: 'current' });
    expect(versionAt('2026-12-15', ahead, TODAY)).toEqual({ kind: 'version', date: '2026-12-15' });
    expect(versionAt('2026-12-25', ahead, TODAY)).toEqual({ kind: 'not-found' });
  });

  it('dates each version from its own date to the next', () => {
    expect(inEffect('2026-11-22', DATES)).toEqual({ from: '2026-11-22', to: '2026-12-01' });
    expect(inEffect('2026-12-15', DATES)).toEqual({ from: '2026-12-15', to: null });
  });

  it('lets a page be asked only for days a version could have: from 2020 to a year ahead', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    for (const value of ['2020-01-01', '2026-11-22', '2027-11-29']) expect(mayNameVersion(value, now), value).toBe(true);
    for (const value of ['2019-12-31', '2027-11-30', '0001-01-01', '9999-12-31', '2026-02-30', '%2e%2e', '2026-11-22%00'])
      expect(mayNameVersion(value, now), value).toBe(false);
  });

  it('lists the record on pages of 20, and lets only plain page numbers from 2 be asked for', () => {
    expect([0, 1, 20, 21, 500].map(pageCount)).toEqual([1, 1, 1, 2, 25]);
    for (const value of ['2', '9', '10', '9999']) expect(mayNamePage(value), value).toBe(true);
    for (const value of ['0', '1', '01', '10000', '-2', '2.0', '1e3', '', 'x']) expect(mayNamePage(value), value).toBe(false);
  });
});
