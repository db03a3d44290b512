import { describe, expect, it } from 'vitest';

import { isRecordId, recordPublish, versionId, versionsOf, type PolicyVersion } from './policy-record';

const SECTIONS = [{ _key: 's1', heading: 'What we collect' }];
const policy = (lastUpdated: string, title = 'Privacy Policy', summary?: string) => ({
  _id: 'privacyPolicy',
  _type: 'privacyPolicy',
  title,
  lastUpdated,
  sections: SECTIONS,
  ...(summary === undefined ? {} : { summary }),
  seo: { title: 'not part of a version' },
});

describe("the record's rules", () => {
  it('a new date adds a version holding the text as published, and nothing else of the document', () => {
    const version = recordPublish([], policy('2026-12-01', 'Privacy Policy', 'New sections.'), '2026-12-01T08:00:00Z');
    expect(version).toEqual({
      _id: 'privacyPolicyVersion-2026-12-01',
      _type: 'privacyPolicyVersion',
      date: '2026-12-01',
      publishedAt: '2026-12-01T08:00:00Z',
      title: 'Privacy Policy',
      summary: 'New sections.',
      sections: SECTIONS,
    });
  });

  it('the same date with another text corrects the version, keeping the text it replaced; the same text writes nothing', () => {
    const first = recordPublish([], policy('2026-12-01', 'Privacy Polcy'), 'T1')!;
    expect(recordPublish([first], policy('2026-12-01', 'Privacy Polcy'), 'T2')).toBeUndefined();
    const corrected = recordPublish([first], policy('2026-12-01', 'Privacy Policy'), 'T2')!;
    expect(corrected).toMatchObject({ _id: first._id, title: 'Privacy Policy', publishedAt: 'T1', correctedAt: 'T2' });
    expect(corrected.replaced).toEqual([
      { _key: 'r1', _type: 'replacedPolicyText', replacedAt: 'T2', title: 'Privacy Polcy', sections: SECTIONS },
    ]);
    const again = recordPublish([corrected], policy('2026-12-01', 'Privacy Policy', 'Typo fixed.'), 'T3')!;
    expect(again.replaced!.map((text) => [text._key, text.title, text.replacedAt])).toEqual([
      ['r1', 'Privacy Polcy', 'T2'],
      ['r2', 'Privacy Policy', 'T3'],
    ]);
  });

  it('lists versions newest first, and knows record ids in every variant', () => {
    const docs = ['2026-11-22', '2027-01-01', '2026-12-15'].map((date) => recordPublish([], policy(date), 'T') as PolicyVersion);
    expect(versionsOf([...docs, { _id: 'privacyPolicy', _type: 'privacyPolicy' }]).map((version) => version.date)).toEqual([
      '2027-01-01',
      '2026-12-15',
      '2026-11-22',
    ]);
    for (const id of [versionId('2026-12-01'), `drafts.${versionId('2026-12-01')}`, `versions.rX.${versionId('x')}`])
      expect(isRecordId(id)).toBe(true);
    expect(isRecordId('privacyPolicy')).toBe(false);
  });
});
