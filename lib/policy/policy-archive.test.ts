import { describe, expect, it } from 'vitest';

import { inEffect, isCalendarDate, mayNamePage, mayNameVersion, pageCount, versionAt } from './policy-archive';

const DATES = ['2026-12-15', '2026-12-01', '2026-11-22'];
const TODAY = '2026-12-20';

/** The record of `dates` as the pages read it on `today`, `withdrawn` among them. */
function at(value: string, dates: string[], today = TODAY, withdrawn: string[] = []) {
  const versions = dates.map((date) => ({ date, withdrawnAt: withdrawn.includes(date) ? '2026-12-02T10:00:00Z' : null }));
  const current = versions.find(({ date, withdrawnAt }) => !withdrawnAt && date <= today);
  return versionAt(value, { today, versions, current });
}

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
    expect(at('2026-12-01', DATES)).toEqual({ kind: 'version', date: '2026-12-01' });
    expect(at('2026-11-22', DATES)).toEqual({ kind: 'version', date: '2026-11-22' });
    expect(at('2026-12-15', DATES)).toEqual({ kind: 'current' });
  });

  it('sends any other day since the first version to the version in effect that day', () => {
    expect(at('2026-11-30', DATES)).toEqual({ kind: 'in-effect', date: '2026-11-22' });
    expect(at('2026-12-14', DATES)).toEqual({ kind: 'in-effect', date: '2026-12-01' });
    expect(at('2026-12-16', DATES)).toEqual({ kind: 'current' });
    expect(at(TODAY, DATES)).toEqual({ kind: 'current' });
  });

  it('names nothing before the first version, after today, or with no record', () => {
    for (const value of ['2026-11-21', '2026-12-21', '2027-01-01', '2026-02-30', '..'])
      expect(at(value, DATES), value).toEqual({ kind: 'not-found' });
    expect(at('2026-11-22', [])).toEqual({ kind: 'not-found' });
  });

  it('shows a version announced ahead of its day on its own date, and names no other day after today', () => {
    const ahead = ['2027-01-01', ...DATES];
    expect(at('2027-01-01', ahead)).toEqual({ kind: 'version', date: '2027-01-01' });
    expect(at('2026-12-15', ahead)).toEqual({ kind: 'current' });
    expect(at('2026-12-25', ahead)).toEqual({ kind: 'not-found' });
    // Its day come, it is the current one.
    expect(at('2027-01-01', ahead, '2027-01-01')).toEqual({ kind: 'current' });
    expect(at('2027-01-02', ahead, '2027-01-02')).toEqual({ kind: 'current' });
  });

  it('shows a withdrawn version on its own date, and counts no day as in its effect', () => {
    expect(at('2026-12-15', DATES, TODAY, ['2026-12-15'])).toEqual({ kind: 'version', date: '2026-12-15' });
    expect(at('2026-12-16', DATES, TODAY, ['2026-12-15'])).toEqual({ kind: 'current' });
    expect(at('2026-12-01', DATES, TODAY, ['2026-12-15'])).toEqual({ kind: 'current' });
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
