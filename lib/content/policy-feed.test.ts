import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';

import { toPolicyFeed } from './policy-feed';
import { addDays, dayIn } from '@/lib/shared/site-time';
import type { VersionsCopy } from '@/lib/policy/version-copy';
import type { Schedule } from './version-views';

/** The feed read by a strict XML 1.0 parser: it throws at the first character or markup XML does not allow. */
function parsed(xml: string): { summaries: string[]; titles: string[] } {
  const parser = new SaxesParser();
  const texts: Record<string, string[]> = { summary: [], title: [] };
  let open: string | undefined;
  parser.on('opentag', ({ name }) => void (open = name));
  parser.on('text', (text) => void (open && open in texts && texts[open]!.push(text)));
  parser.on('closetag', () => void (open = undefined));
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  return { summaries: texts.summary!, titles: texts.title! };
}

const today = dayIn(Date.now(), 'UTC');
const copy = new Proxy({} as VersionsCopy, {
  get: (_, key) => (key === 'locale' ? 'en' : key === 'feedTitle' ? 'Policy \u0007changes' : `${String(key)} {date}`),
});

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
    const feed = toPolicyFeed(schedule(summary), copy, { site: 'https://example.com', author: 'Hall\u0000way', announced });
    const { summaries, titles } = parsed(feed);
    expect(summaries).toEqual(['ABCDEFGHIJ <b>&"\'</b>\tK\nL \u{1F600}']);
    expect(titles[0]).toBe('Policy changes');
  });

  it('says a material version published ahead was announced only when the store recorded its announcement', () => {
    const ahead = schedule('Kept longer.');
    const { date } = ahead.versions[0]!;
    const feed = (announced: string[]) =>
      parsed(toPolicyFeed(ahead, copy, { site: 'https://example.com', author: 'Hallway', announced: new Set(announced) })).titles;
    expect(feed([])).toEqual(['Policy changes']);
    expect(feed([addDays(date, 1)])).toEqual(['Policy changes']);
    expect(feed([date])).toEqual(['Policy changes', expect.stringMatching(/^feedAnnounced /)]);
    // A change that is not material tells no subscriber: the site's notice is its announcement.
    const minor = { ...ahead, versions: [{ ...ahead.versions[0]!, material: null }] };
    expect(parsed(toPolicyFeed(minor, copy, { site: 'https://example.com', author: 'Hallway', announced: new Set() })).titles).toHaveLength(
      2,
    );
  });
});
