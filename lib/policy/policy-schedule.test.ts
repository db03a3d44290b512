import { describe, expect, it } from 'vitest';

import { isUpToDate, recordPublish, translationIn, type PolicyVersion } from './policy-record';
import {
  policyClock,
  policyState,
  publishProblem,
  recordWrites,
  scheduleProblem,
  secondsTrue,
  translationWrites,
  untranslated,
  withWrites,
} from './policy-schedule';
import { addDays, dayIn, isTimeZone, startOfDay } from '@/lib/shared/site-time';

/** 2026-12-01, 10:00 UTC: "now" in these rules. */
const NOW = Date.parse('2026-12-01T10:00:00Z');
const clock = (settings: Record<string, unknown> = {}, now = NOW) => policyClock({ noticePeriodDays: 30, ...settings }, now);
const policy = (lastUpdated: string, materialChange = false, title = 'Privacy Policy') => ({
  _id: 'privacyPolicy',
  _type: 'privacyPolicy',
  title,
  lastUpdated,
  materialChange,
  sections: [{ _key: 's1', heading: 'What we collect' }],
});
const version = (date: string, publishedAt = '2026-11-22T09:00:00Z', more: Partial<PolicyVersion> = {}) => ({
  ...recordPublish([], policy(date), publishedAt)!,
  ...more,
});
const RECORD = [version('2026-11-22')];

describe("the site's calendar", () => {
  it('names the day an instant falls on in a time zone, and when a day begins there, summer time included', () => {
    expect(dayIn(Date.parse('2026-12-01T02:00:00Z'), 'UTC')).toBe('2026-12-01');
    expect(dayIn(Date.parse('2026-12-01T02:00:00Z'), 'America/Denver')).toBe('2026-11-30');
    expect(new Date(startOfDay('2026-12-01', 'America/Denver')).toISOString()).toBe('2026-12-01T07:00:00.000Z');
    expect(new Date(startOfDay('2026-07-01', 'America/Denver')).toISOString()).toBe('2026-07-01T06:00:00.000Z');
    expect(new Date(startOfDay('2026-03-29', 'Europe/Berlin')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(startOfDay('2026-12-01', 'Asia/Kathmandu')).toISOString()).toBe('2026-11-30T18:15:00.000Z');
    // Santiago's clocks jump from 24:00 to 01:00 on 2026-09-06: that day begins at one.
    expect(dayIn(startOfDay('2026-09-06', 'America/Santiago'), 'America/Santiago')).toBe('2026-09-06');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(['UTC', 'Europe/Berlin'].every(isTimeZone)).toBe(true);
    expect(['', 'Mars/Olympus', 'utc+2', null].some(isTimeZone)).toBe(false);
  });

  it('reads the settings, with 30 days and UTC for what they lack or get wrong', () => {
    const plain = { now: NOW, timeZone: 'UTC', noticeDays: 30, translatedInto: [], announceAlone: false };
    expect(policyClock(null, NOW)).toEqual(plain);
    expect(policyClock({ timeZone: 'Nowhere/Else', noticePeriodDays: -3 }, NOW)).toEqual(plain);
    expect(policyClock({ timeZone: 'Europe/Berlin', noticePeriodDays: 7 }, NOW)).toMatchObject({
      timeZone: 'Europe/Berlin',
      noticeDays: 7,
    });
  });
});

describe('which version is in effect', () => {
  it('is the newest one whose day has begun, not withdrawn; later ones are announced, soonest first', () => {
    const record = [version('2027-02-01'), version('2027-01-01'), version('2026-12-20', undefined, { withdrawnAt: 'T' }), ...RECORD];
    const { current, upcoming } = policyState(record, '2026-12-21');
    expect(current?.date).toBe('2026-11-22');
    expect(upcoming.map(({ date }) => date)).toEqual(['2027-01-01', '2027-02-01']);
    expect(policyState(record, '2027-01-01').current?.date).toBe('2027-01-01');
    expect(policyState([], '2027-01-01')).toEqual({ current: undefined, upcoming: [] });
  });

  it("says how long today's view holds: until the next version's day begins, at most an hour, at least a second", () => {
    expect(secondsTrue(['2026-12-02'], 'UTC', Date.parse('2026-12-01T23:59:30Z'))).toBe(30);
    expect(secondsTrue(['2026-12-02'], 'UTC', Date.parse('2026-12-01T10:00:00Z'))).toBe(3600);
    expect(secondsTrue([], 'UTC', NOW)).toBe(3600);
    expect(secondsTrue(['2026-12-02'], 'UTC', Date.parse('2026-12-01T23:59:59.900Z'))).toBe(1);
  });
});

describe('what a publish may announce', () => {
  it('a minor change takes any day from the version in effect to a year ahead', () => {
    for (const date of ['2026-11-22', '2026-12-01', '2026-12-02', '2027-12-02'])
      expect(scheduleProblem(policy(date), RECORD, clock()), date).toBeUndefined();
    expect(scheduleProblem(policy('2026-11-21'), RECORD, clock())).toMatch(
      /2026-11-21, earlier than the current version of the policy \(2026-11-22\)/,
    );
    expect(scheduleProblem(policy('2027-12-03'), RECORD, clock())).toMatch(/more than a year ahead: the latest it may be is 2027-12-02/);
  });

  it('a material change waits out the notice period from its first publish, and the message names the earliest day', () => {
    expect(scheduleProblem(policy('2026-12-01', true), RECORD, clock())).toBe(
      'A material change takes effect at least 30 days after it is announced (2026-12-01): the earliest "Last updated" date is 2026-12-31.',
    );
    expect(scheduleProblem(policy('2026-12-30', true), RECORD, clock())).toMatch(/earliest "Last updated" date is 2026-12-31/);
    expect(scheduleProblem(policy('2026-12-31', true), RECORD, clock())).toBeUndefined();
    // Corrected later, it counts from its first publish; in the site's zone, it is still Nov 30 in Denver.
    const announced = [version('2026-12-31', '2026-12-01T10:00:00Z'), ...RECORD];
    expect(
      scheduleProblem(policy('2026-12-31', true, 'Privacy Policy, fixed'), announced, clock({}, Date.parse('2026-12-20T00:00:00Z'))),
    ).toBeUndefined();
    expect(
      scheduleProblem(
        policy('2026-12-30', true),
        RECORD,
        clock({ timeZone: 'America/Denver', noticePeriodDays: 30 }, Date.parse('2026-12-01T02:00:00Z')),
      ),
    ).toBeUndefined();
  });

  it('a withdrawn day is not announced again, and a publish of the recorded version passes whatever the settings became', () => {
    const record = [version('2026-12-31', '2026-12-01T09:00:00Z', { withdrawnAt: '2026-12-01T09:30:00Z' }), ...RECORD];
    expect(scheduleProblem(policy('2026-12-31'), record, clock())).toMatch(/withdrawn before it took effect/);
    const recorded = [{ ...version('2026-12-31', '2026-12-01T09:00:00Z'), material: true }, ...RECORD];
    expect(publishProblem(policy('2026-12-31', true), recorded, clock({ noticePeriodDays: 60 }))).toBeUndefined();
    expect(scheduleProblem(policy('2026-12-31', true), recorded, clock({ noticePeriodDays: 60 }))).toMatch(/earliest .* 2027-01-30/);
  });
});

describe('what a publish writes to the record', () => {
  it('a new day adds its version, material or not; the same text again writes nothing', () => {
    const [added] = recordWrites(RECORD, policy('2026-12-31', true), clock());
    expect(added).toMatchObject({ date: '2026-12-31', publishedAt: '2026-12-01T10:00:00.000Z', material: true });
    expect(recordWrites([added!, ...RECORD], policy('2026-12-31', true), clock())).toEqual([]);
    const [unmarked] = recordWrites([added!, ...RECORD], policy('2026-12-31', false), clock());
    expect(unmarked).toMatchObject({ date: '2026-12-31', correctedAt: '2026-12-01T10:00:00.000Z' });
    expect(unmarked).not.toHaveProperty('material');
  });

  it('an earlier day than an announced version withdraws it, and publishes its own version as usual', () => {
    const record = [version('2027-01-15', '2026-11-30T08:00:00Z'), version('2026-12-31', '2026-11-30T08:00:00Z'), ...RECORD];
    const writes = recordWrites(record, policy('2026-12-01', false, 'Privacy Policy, clarified'), clock());
    expect(writes.map(({ date, withdrawnAt }) => [date, withdrawnAt ?? null])).toEqual([
      ['2026-12-01', null],
      ['2026-12-31', '2026-12-01T10:00:00.000Z'],
      ['2027-01-15', '2026-12-01T10:00:00.000Z'],
    ]);
    // Back to the version in effect, as it was: only the withdrawals.
    expect(recordWrites(record, policy('2026-11-22'), clock()).map(({ date }) => date)).toEqual(['2026-12-31', '2027-01-15']);
  });
});

describe('a policy in more than one language', () => {
  const LANGUAGES = { languages: [{ tag: 'en' }, { tag: 'es' }, { tag: 'ar' }], defaultLanguage: 'en' };
  const AHEAD = '2027-01-15';
  const translation = (language: string, lastUpdated: string, title = `Policy (${language})`) => ({
    ...policy(lastUpdated, false, title),
    _id: `privacyPolicy-${language}`,
    language,
  });

  it('the clock lists the languages besides the default, and whether the default may announce alone', () => {
    expect(clock(LANGUAGES)).toMatchObject({ translatedInto: ['es', 'ar'], announceAlone: false });
    expect(clock({ ...LANGUAGES, announceBeforeTranslations: true }).announceAlone).toBe(true);
  });

  it('a material change waits for a text dated its day in every language; a minor one, and a translation, never wait', () => {
    const material = policy(AHEAD, true);
    const es = translation('es', AHEAD);
    expect(untranslated(AHEAD, clock(LANGUAGES), [es, translation('ar', '2026-11-22')])).toEqual(['ar']);
    expect(scheduleProblem(material, RECORD, clock(LANGUAGES), [es])).toBe(
      `A material change is announced in every language at once, and ar has no text dated ${AHEAD} yet. Publish each translation with this date first, or all of them in one release (Site settings can allow announcing before).`,
    );
    expect(scheduleProblem(material, RECORD, clock(LANGUAGES), [es, translation('ar', AHEAD)])).toBeUndefined();
    expect(scheduleProblem(material, RECORD, clock({ ...LANGUAGES, announceBeforeTranslations: true }), [])).toBeUndefined();
    expect(scheduleProblem(policy(AHEAD), RECORD, clock(LANGUAGES), [])).toBeUndefined();
    expect(scheduleProblem(translation('es', '2026-01-01'), RECORD, clock(LANGUAGES), [])).toBeUndefined();
    // Announced already: a correction of it does not wait again.
    const announced = [...RECORD, version(AHEAD, '2026-12-01T09:00:00Z', { material: true })];
    expect(publishProblem({ ...material, title: 'Corrected' }, announced, clock(LANGUAGES), [])).toBeUndefined();
  });

  it("records each language's text with its version: waiting for it, out of date after a correction, anew when published again", () => {
    const published = () => false;
    const at = (time: string) => () => time;
    const es = translation('es', AHEAD);
    // Published before its version: nothing to write yet, then taken in as the version is made.
    expect(translationWrites(RECORD, [], [es], () => true, at('2026-12-01T10:00:00Z'))).toEqual([]);
    const made = recordWrites(RECORD, policy(AHEAD, true), clock(LANGUAGES), '2026-12-02T10:00:00Z');
    const [withText] = translationWrites(RECORD, made, [es], published, at('2026-12-02T10:00:00Z'));
    expect(translationIn(withText!, 'es')).toMatchObject({ title: 'Policy (es)', recordedAt: '2026-12-02T10:00:00Z' });
    expect(isUpToDate(withText!, translationIn(withText!, 'es')!)).toBe(true);
    // The default text corrected: the translation stays as it was, out of date.
    const record = withWrites(RECORD, [withText!]);
    const corrected = recordWrites(record, policy(AHEAD, true, 'Corrected'), clock(LANGUAGES), '2026-12-03T10:00:00Z');
    expect(translationWrites(record, corrected, [es], published, at('2026-12-03T10:00:00Z'))).toEqual([]);
    expect(isUpToDate(corrected[0]!, translationIn(corrected[0]!, 'es')!)).toBe(false);
    // Published again, even unchanged: of the corrected text now.
    const after = withWrites(record, corrected);
    const [again] = translationWrites(after, [], [es], () => true, at('2026-12-04T10:00:00Z'));
    expect(isUpToDate(again!, translationIn(again!, 'es')!)).toBe(true);
    expect(translationWrites(withWrites(after, [again!]), [], [es], () => true, at('2026-12-05T10:00:00Z'))).toEqual([]);
  });

  it('a withdrawn version takes no more texts', () => {
    const withdrawn = [...RECORD, version(AHEAD, '2026-12-01T09:00:00Z', { withdrawnAt: '2026-12-02T09:00:00Z' })];
    expect(
      translationWrites(
        withdrawn,
        [],
        [translation('es', AHEAD)],
        () => true,
        () => '2026-12-03T10:00:00Z',
      ),
    ).toEqual([]);
  });
});
