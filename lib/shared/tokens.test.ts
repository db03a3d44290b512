import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { queryResults, SEED_FILE as SEED, stringsIn } from '../../testkit/seed-queries';
import { fillSentence, fillTokens } from './tokens';
import { toPrivacyView, type PrivacyPolicyView } from '@/lib/content/policy-view';
import { toLandingView } from '@/lib/content/views';

const TOKEN = '{radius}';

const count = (strings: string[], pattern: RegExp) => strings.reduce((sum, text) => sum + (text.match(pattern)?.length ?? 0), 0);

/**
 * The query results of a dataset, and the views pages get from them (views.ts, as index.ts makes
 * them). The FAQ's structured data repeats its visible text, so it is left out of what is counted.
 */
async function pagesOf(file: string) {
  const { settings, landing, support, privacy } = await queryResults(file);
  const landingView = toLandingView(landing, settings);
  return {
    settings,
    support,
    raw: { landing, privacy },
    filled: { landing: { ...landingView, faq: { ...landingView.faq, structuredData: null } }, privacy: toPrivacyView(privacy, settings) },
  };
}

const sectionText = (privacy: PrivacyPolicyView, index: number) => {
  const section = privacy.sections[index];
  if (!section) throw new Error(`privacy section ${index + 1} is missing`);
  return section.body
    .flatMap((block) => block.children ?? [])
    .map((span) => span.text ?? '')
    .join('');
};

describe('the radius setting reaches every mention', () => {
  let dir: string;
  let fiveMiles: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tokens-test-'));
    fiveMiles = join(dir, 'five-miles.ndjson');
    const lines = (await readFile(SEED, 'utf8')).split('\n').filter((line) => line.trim() !== '');
    const changed = lines.map((line) => {
      const doc = JSON.parse(line) as { _id: string; radiusMiles?: number };
      return doc._id === 'siteSettings' ? JSON.stringify({ ...doc, radiusMiles: 5 }) : line;
    });
    await writeFile(fiveMiles, changed.join('\n') + '\n');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the seed writes {radius} in both pages, so the filling below is not vacuous', async () => {
    const { raw } = await pagesOf(SEED);
    expect(count(stringsIn(raw.landing), /\{radius\}/g)).toBeGreaterThanOrEqual(2);
    expect(count(stringsIn(raw.privacy), /\{radius\}/g)).toBeGreaterThanOrEqual(1);
  });

  it('with the seed radius of 3, the hero, the first card and privacy section 2 say 3', async () => {
    const { settings, filled } = await pagesOf(SEED);
    expect(settings.radiusMiles).toBe(3);
    expect(filled.landing.hero.text).toContain('within 3 miles of you');
    expect(filled.landing.features.cards[0]?.title).toBe('3-Mile Radius');
    expect(sectionText(filled.privacy, 1)).toContain('3-mile radius');
  });

  it.each(['landing', 'privacy'] as const)('no string in the %s result still contains {radius}', async (page) => {
    const { filled } = await pagesOf(SEED);
    expect(stringsIn(filled[page]).filter((text) => text.includes(TOKEN))).toEqual([]);
  });

  it('with radius 5 every mention says 5 and none says 3', async () => {
    const { settings, raw, filled } = await pagesOf(fiveMiles);
    expect(settings.radiusMiles).toBe(5);
    expect(filled.landing.hero.text).toContain('within 5 miles of you');
    expect(filled.landing.features.cards[0]?.title).toBe('5-Mile Radius');
    expect(sectionText(filled.privacy, 1)).toContain('5-mile radius');

    const before = [...stringsIn(raw.landing), ...stringsIn(raw.privacy)];
    const after = [...stringsIn(filled.landing), ...stringsIn(filled.privacy)];
    expect(after.filter((text) => text.includes(TOKEN))).toEqual([]);
    expect(count(after, /\b5[- ]mile/gi)).toBe(count(before, /\{radius\}[- ]mile/gi));
    expect(after.filter((text) => /\b3[- ]mile/i.test(text))).toEqual([]);
  });

  it('the support page and the settings, which are not filled, write no {radius}', async () => {
    // The views fill {radius} only in the landing page and the privacy policy; a token elsewhere would reach readers as is.
    const { settings, support } = await pagesOf(SEED);
    expect(stringsIn(support).length).toBeGreaterThan(0);
    expect([...stringsIn(settings), ...stringsIn(support)].filter((text) => text.includes(TOKEN))).toEqual([]);
  });
});

describe('fillTokens', () => {
  it.each([
    ['a lone token', '{radius}', '3'],
    ['every occurrence in a string', '{radius} miles, {radius}-mile', '3 miles, 3-mile'],
    ['text without a token', 'no radius here', 'no radius here'],
    ['a misspelt token', '{Radius} {radius }', '{Radius} {radius }'],
  ])('strings: %s', (_case, input, expected) => {
    expect(fillTokens(input, { radius: 3 })).toBe(expected);
  });

  it('fills strings nested in arrays and objects and leaves everything else as it was', () => {
    const input = {
      title: '{radius}-Mile Radius',
      count: 4,
      visible: true,
      missing: null,
      unset: undefined,
      list: ['within {radius} miles', 7, false, null, { deep: ['{radius}'] }],
    };
    expect(fillTokens(input, { radius: 3 })).toEqual({
      title: '3-Mile Radius',
      count: 4,
      visible: true,
      missing: null,
      unset: undefined,
      list: ['within 3 miles', 7, false, null, { deep: ['3'] }],
    });
  });

  it.each([4, true, null, undefined])('returns the non-string %s unchanged', (value) => {
    expect(fillTokens(value, { radius: 3 })).toBe(value);
  });

  it('does not change the value it was given', () => {
    const input = { text: ['{radius} miles'] };
    fillTokens(input, { radius: 3 });
    expect(input).toEqual({ text: ['{radius} miles'] });
  });

  it('leaves object keys alone (only values are text)', () => {
    expect(fillTokens({ '{radius}': '{radius}' }, { radius: 3 })).toEqual({ '{radius}': '3' });
  });

  it.each([null, undefined])('with radius %s leaves the text as is', (radius) => {
    const input = { hero: { text: 'within {radius} miles of you' }, cards: [{ title: '{radius}-Mile Radius' }] };
    expect(fillTokens(input, { radius })).toEqual(input);
  });

  it('fills a radius of 0 (0 is a number, not a missing setting)', () => {
    expect(fillTokens('{radius} miles', { radius: 0 })).toBe('0 miles');
  });
});

describe('fillTokens with several tokens (store lines, form messages)', () => {
  it('fills each named token and leaves the others as written', () => {
    expect(fillTokens('{field} must be at most {max} characters.', { field: 'Subject', max: 200 })).toBe(
      'Subject must be at most 200 characters.',
    );
    expect(fillTokens('Search “{productName}” in the App Store', { productName: 'Hallway' })).toBe('Search “Hallway” in the App Store');
    expect(fillTokens('{field} and {unknown}', { field: 'Email' })).toBe('Email and {unknown}');
  });

  it('never takes a value from the object prototype', () => {
    expect(fillTokens('{constructor} {toString}', {})).toBe('{constructor} {toString}');
  });

  it('does not fill a token inside a filled value again', () => {
    expect(fillTokens('{field}', { field: '{max}', max: 5 })).toBe('{max}');
  });
});

describe('fillSentence: the values a page isolates', () => {
  it('fills each named token as a part of its own, the words around it as they are', () => {
    expect(fillSentence('Search “{productName}” in the App Store', { productName: 'Hallway' })).toEqual([
      'Search “',
      { isolate: 'Hallway' },
      '” in the App Store',
    ]);
    expect(fillSentence('{productName}: {unknown}', { productName: 'Hallway' })).toEqual([{ isolate: 'Hallway' }, ': {unknown}']);
    expect(fillSentence('No token here.', { productName: 'Hallway' })).toEqual(['No token here.']);
    expect(fillSentence('{constructor}', {})).toEqual(['{constructor}']);
  });
});
