import { beforeAll, describe, expect, it } from 'vitest';

import { RETENTION_DEFAULTS } from '@/lib/shared/retention';
import { fillTokens } from '@/lib/shared/tokens';

import { queryResults, stringsIn } from '../../testkit/seed-queries';
import { toPrivacyView } from './policy-view';
import { settingsTokens } from './settings-tokens';
import type { SettingsResult } from './views';

let seed: SettingsResult;
let privacy: Awaited<ReturnType<typeof queryResults>>['privacy'];

beforeAll(async () => {
  ({ settings: seed, privacy } = await queryResults());
});

const withDays = (answeredRequestDays: number | null, unansweredRequestDays: number | null): SettingsResult => ({
  ...seed,
  answeredRequestDays,
  unansweredRequestDays,
});

/** The seed's policy with a sentence naming both numbers added to its first section. */
function policyNaming(sentence: string) {
  const [first, ...rest] = privacy.sections ?? [];
  const block = {
    _type: 'block' as const,
    _key: 'days',
    style: 'normal' as const,
    markDefs: [],
    children: [{ _type: 'span' as const, _key: 's', text: sentence, marks: [] }],
  };
  return { ...privacy, sections: [{ ...first!, body: [...(first!.body ?? []), block] }, ...rest] };
}

describe('settingsTokens: the numbers of Site settings that texts name', () => {
  it('the seed sets the radius and the days requests are kept', () => {
    expect(settingsTokens(seed)).toEqual({ radius: 3, answeredDays: 30, unansweredDays: 365 });
  });

  it('the days come from the settings, and from the defaults the sweep uses where they are absent', () => {
    expect(settingsTokens(withDays(14, 90))).toMatchObject({ answeredDays: 14, unansweredDays: 90 });
    expect(settingsTokens(withDays(null, null))).toMatchObject(RETENTION_DEFAULTS);
  });

  it('fills {answeredDays} and {unansweredDays} as it fills {radius}', () => {
    const text = 'Within {radius} miles; answered requests go after {answeredDays} days, others after {unansweredDays}.';
    expect(fillTokens(text, settingsTokens(withDays(14, 90)))).toBe('Within 3 miles; answered requests go after 14 days, others after 90.');
  });
});

describe('the privacy policy names the days as the settings set them', () => {
  const sentence = 'Answered support requests are deleted {answeredDays} days after we answer them, others after {unansweredDays} days.';

  it('with the seed settings', () => {
    const view = toPrivacyView(policyNaming(sentence), seed);
    const strings = stringsIn(view.sections);
    expect(strings).toContain('Answered support requests are deleted 30 days after we answer them, others after 365 days.');
    expect(strings.filter((text) => /\{(answeredDays|unansweredDays)\}/.test(text))).toEqual([]);
  });

  it('after an editor changes them', () => {
    const view = toPrivacyView(policyNaming(sentence), withDays(7, 180));
    expect(stringsIn(view.sections)).toContain('Answered support requests are deleted 7 days after we answer them, others after 180 days.');
  });
});
