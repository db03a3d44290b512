import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';

import { toPolicyFeed } from './policy-feed';
import { addDays, dayIn } from '@/lib/shared/site-time';
import type { VersionsCopy } from '@/lib/policy/version-copy';
import type { Schedule } from './version-views';

/** The feed read by a strict XML 1.0 parser: it throws at the first character or markup XML does not allow. */
function parsed(xml: string): { summaries: string[]; titles: string[]; languages: string[] } {
  const parser = new SaxesParser();
  const texts: Record<string, string[]> = { summary: [], title: [] };
  const languages: string[] = [];
  let open: string | undefined;
  parser.on('opentag', ({ name, attributes }) => {
    open = name;
    if (attributes['xml:lang'] !== undefined) languages.push(`${name} ${String(attributes['xml:lang'])}`);
  });
  parser.on('text', (text) => void (open && open in texts && texts[open]!.push(text)));
  parser.on('closetag', () => void (open = undefined));
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  return { summaries: texts.summary!, titles: texts.title!, languages };
}

const today = dayIn(Date.now(), 'UTC');
const copyIn = (locale: string) =>
  new Proxy({} as VersionsCopy, {
    get: (_, key) => (key === 'locale' ? locale : key === 'feedTitle' ? 'Policy \u0007changes' : `${String(key)} {date}`),
  });
const copy = copyIn('en');
const ENGLISH = { tag: 'en', defaultLanguage: 'en' };
/** The site's address and the feed's language: English, the default. */
const IN_ENGLISH = { site: 'https://example.com', language: ENGLISH };

function schedule(summary: string): Schedule {
  const announced = {
    date: addDays(today, 20),
    summary,
    material: true,
    publishedAt: new Date().toISOString(),
    correctedAt: null,
    withdrawnAt: null,
  };
  return { today, timeZone: 'UTC', versions: [announced] };
}

describe('the policy feed', () => {
  it('is well-formed XML whatever the summary holds: the characters XML 1.0 does not allow are left out, markup is escaped', () => {
    const summary = 'A\u0000B\u0001C\u0008D\u000BE\u000CF\u001FG\uFFFEH\uFFFFI\uD800J <b>&"\'</b>\tK\nL \u{1F600}';
    const announced = new Set([addDays(today, 20)]);
    const feed = toPolicyFeed(schedule(summary), copy, { ...IN_ENGLISH, author: 'Hall\u0000way', announced });
    const { summaries, titles } = parsed(feed);
    expect(summaries).toEqual(['ABCDEFGHIJ <b>&"\'</b>\tK\nL \u{1F600}']);
    expect(titles[0]).toBe('Policy changes');
  });

  it('says a material version published ahead was announced only when the store recorded its announcement', () => {
    const ahead = schedule('Kept longer.');
    const { date } = ahead.versions[0]!;
    const feed = (announced: string[]) =>
      parsed(toPolicyFeed(ahead, copy, { ...IN_ENGLISH, author: 'Hallway', announced: new Set(announced) })).titles;
    expect(feed([])).toEqual(['Policy changes']);
    expect(feed([addDays(date, 1)])).toEqual(['Policy changes']);
    expect(feed([date])).toEqual(['Policy changes', expect.stringMatching(/^feedAnnounced /)]);
    // A change that is not material tells no subscriber: the site's notice is its announcement.
    const minor = { ...ahead, versions: [{ ...ahead.versions[0]!, material: null }] };
    expect(parsed(toPolicyFeed(minor, copy, { ...IN_ENGLISH, author: 'Hallway', announced: new Set() })).titles).toHaveLength(2);
  });

  it('says its language, the words’ own, and the summaries’ where the record’s default language is another', () => {
    const ahead = schedule('Kept longer.');
    const announced = new Set([ahead.versions[0]!.date]);
    const feed = (locale: string, language: { tag: string; defaultLanguage: string }) =>
      toPolicyFeed(ahead, copyIn(locale), { site: 'https://example.com', language, author: 'Hallway', announced });
    expect(parsed(feed('en', ENGLISH)).languages).toEqual(['feed en']);
    const arabic = feed('ar', { tag: 'ar', defaultLanguage: 'en' });
    expect(parsed(arabic).languages).toEqual(['feed ar', 'summary en']);
    expect(arabic).toContain('href="https://example.com/ar/privacy/versions"');
    // A language without its own words yet: the feed is in the default language's, and says so once.
    expect(parsed(feed('en', { tag: 'ar', defaultLanguage: 'en' })).languages).toEqual(['feed en']);
  });
});
