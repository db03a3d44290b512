import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type {
  BlockContent,
  LANDING_PAGE_QUERY_RESULT,
  PRIVACY_POLICY_QUERY_RESULT,
  SETTINGS_QUERY_RESULT,
  SUBSCRIPTION_COPY_QUERY_RESULT,
  SUPPORT_PAGE_QUERY_RESULT,
} from '@/sanity.types';

import { parseNdjson } from '@school-site/content-lake';
import type { Perspective, SanityDocument } from '@school-site/content-lake';
import { queryDocuments } from '@school-site/content-lake';

import { LANDING_PAGE_QUERY, PRIVACY_POLICY_QUERY, SETTINGS_QUERY, SUBSCRIPTION_COPY_QUERY, SUPPORT_PAGE_QUERY } from './queries';
import { SEED_FILE as SEED } from '@/testkit/paths';

/**
 * Every query of the site, evaluated with groq-js over the committed seed
 * dataset, returns what its page renders.
 */

/** A query over a dataset file, as the local lake answers it. */
async function queryDataset<T>(file: string, query: string, params: Record<string, unknown>, perspective: Perspective): Promise<T> {
  return queryDocuments<T>(parseNdjson(await readFile(file, 'utf8'), file), query, params, perspective);
}

function present<T>(value: T | null | undefined, what: string): T {
  if (value == null) throw new Error(`${what} is missing from the query result`);
  return value;
}

/** A string with visible text: fails on null, undefined and blank strings alike. */
const NON_BLANK = /\S/;

function plainText(body: BlockContent | null | undefined): string {
  return (body ?? []).map((block) => (block.children ?? []).map((span) => span.text ?? '').join('')).join('\n');
}

const settingsOf = async (file = SEED, perspective: Perspective = 'published') =>
  present(await queryDataset<SETTINGS_QUERY_RESULT>(file, SETTINGS_QUERY, { language: 'en' }, perspective), 'siteSettings');
const landingOf = async (file = SEED, perspective: Perspective = 'published') =>
  present(await queryDataset<LANDING_PAGE_QUERY_RESULT>(file, LANDING_PAGE_QUERY, { language: 'en' }, perspective), 'landingPage');
const supportOf = async (file = SEED, perspective: Perspective = 'published') =>
  present(await queryDataset<SUPPORT_PAGE_QUERY_RESULT>(file, SUPPORT_PAGE_QUERY, { language: 'en' }, perspective), 'supportPage');
const privacyOf = async (file = SEED, perspective: Perspective = 'published') =>
  present(await queryDataset<PRIVACY_POLICY_QUERY_RESULT>(file, PRIVACY_POLICY_QUERY, { language: 'en' }, perspective), 'privacyPolicy');

describe('SETTINGS_QUERY over the seed', () => {
  it('returns the product name, description and the 3-mile radius', async () => {
    const settings = await settingsOf();
    expect(settings.productName).toMatch(NON_BLANK);
    expect(settings.description).toMatch(NON_BLANK);
    expect(settings.radiusMiles).toBe(3);
  });

  it('links the header to the landing sections and the support page', async () => {
    const settings = await settingsOf();
    expect(present(settings.headerLinks, 'headerLinks').map(({ label, href }) => [label, href])).toEqual([
      ['Features', '/#features'],
      ['Experience', '/#experience'],
      ['FAQ', '/#faq'],
      ['Support', '/support'],
    ]);
  });

  it('has the Legal, Company and Follow Us footer columns; only existing pages get a target', async () => {
    const settings = await settingsOf();
    const columns = present(settings.footerColumns, 'footerColumns').map((column) => ({
      title: column.title,
      links: present(column.links, `links of ${column.title}`).map(({ label, href }) => [label, href]),
    }));
    expect(columns).toEqual([
      {
        title: 'Legal',
        links: [
          ['Privacy Policy', '/privacy'],
          ['Terms of Service', null],
          ['Community Guidelines', null],
        ],
      },
      {
        title: 'Company',
        links: [
          ['About Us', null],
          ['Careers', null],
          ['Support', '/support'],
        ],
      },
      {
        title: 'Follow Us',
        links: [
          ['Twitter', null],
          ['Instagram', null],
          ['LinkedIn', null],
        ],
      },
    ]);
  });

  it('gives the support hours and reply time shown on the support page', async () => {
    const settings = await settingsOf();
    expect(settings.supportHours).toBe('Monday to Friday, 9:00 AM to 6:00 PM EST');
    expect(settings.replyTime).toMatch(/24 hours on business days/);
  });
});

describe('LANDING_PAGE_QUERY over the seed', () => {
  it('has the hero headline, text and store labels', async () => {
    const { hero } = await landingOf();
    expect(hero?.headline).toBe('Connect Locally, Stay Anonymous');
    for (const text of [hero?.text, hero?.appStoreLabel, hero?.playStoreLabel, hero?.scrollLabel]) expect(text).toMatch(NON_BLANK);
  });

  it('has exactly the four feature cards, each with text and its own icon', async () => {
    const { features } = await landingOf();
    expect(features?.heading).toMatch(NON_BLANK);
    const cards = present(features?.cards, 'features.cards');
    expect(cards.map((card) => card.title)).toEqual(['{radius}-Mile Radius', 'Real-time Feed', 'Community First', 'Privacy & Safety']);
    expect(cards.map((card) => card.icon)).toEqual(['radius', 'feed', 'community', 'shield']);
    for (const card of cards) expect(card.text, card.title ?? '').toMatch(NON_BLANK);
  });

  it.each([
    ['experience', (page: NonNullable<LANDING_PAGE_QUERY_RESULT>) => page.experience?.steps?.map((step) => [step.title, step.text])],
    ['faq', (page: NonNullable<LANDING_PAGE_QUERY_RESULT>) => page.faq?.items?.map((item) => [item.question, item.answer])],
  ] as const)('has a %s section with content', async (section, entriesOf) => {
    const page = await landingOf();
    expect(page[section]?.heading).toMatch(NON_BLANK);
    const entries = present(entriesOf(page), `${section} entries`);
    expect(entries.length).toBeGreaterThan(0);
    for (const [title, text] of entries) {
      expect(title).toMatch(NON_BLANK);
      expect(text).toMatch(NON_BLANK);
    }
  });

  it('has the Stay Updated form copy', async () => {
    const { stayUpdated } = await landingOf();
    expect(stayUpdated).toMatchObject({ placeholder: 'Enter your email', buttonLabel: 'Subscribe' });
    for (const text of [stayUpdated?.heading, stayUpdated?.text, stayUpdated?.successMessage]) expect(text).toMatch(NON_BLANK);
  });

  it('has search metadata', async () => {
    const { seo } = await landingOf();
    expect(seo?.title).toMatch(NON_BLANK);
    expect(seo?.description).toMatch(NON_BLANK);
    expect(seo?.description?.length).toBeLessThanOrEqual(160);
  });
});

describe('SUPPORT_PAGE_QUERY over the seed', () => {
  it('has the heading and intro', async () => {
    const page = await supportOf();
    expect(page.heading).toBe('How can we help?');
    expect(page.intro).toMatch(NON_BLANK);
  });

  it('has three cards, each opening its own form with its own request type', async () => {
    const cards = present((await supportOf()).cards, 'cards');
    expect(cards.map(({ title, modalTitle, requestType }) => [title, modalTitle, requestType])).toEqual([
      ['Report an Issue', 'Report an Issue', 'issue'],
      ['General Feedback', 'Send Feedback', 'feedback'],
      ['Feature Requests', 'Suggest a Feature', 'feature'],
    ]);
    for (const card of cards) expect(card.text, card.title ?? '').toMatch(NON_BLANK);
  });

  it('labels the contact information', async () => {
    const { contact } = await supportOf();
    for (const field of ['heading', 'text', 'replyTimeLabel', 'hoursLabel'] as const) expect(contact?.[field], field).toMatch(NON_BLANK);
  });

  it('answers the three support questions', async () => {
    const page = await supportOf();
    expect(page.faqHeading).toMatch(NON_BLANK);
    const faq = present(page.faq, 'faq');
    const expected = [
      { question: /response|reply/i, answerMentions: ['24 hours', 'business days'] },
      { question: /include/i, answerMentions: ['device type', 'OS version', 'app version', 'description', 'screenshots'] },
      { question: /feature requests/i, answerMentions: ['demand', 'technical feasibility', 'roadmap'] },
    ];
    expect(faq).toHaveLength(expected.length);
    faq.forEach((item, index) => {
      const { question, answerMentions } = present(expected[index], `expectation ${index}`);
      expect(item.question).toMatch(question);
      for (const mention of answerMentions) expect(item.answer, item.question ?? '').toContain(mention);
    });
  });

  it('has search metadata', async () => {
    const { seo } = await supportOf();
    expect(seo?.title).toMatch(NON_BLANK);
    expect(seo?.description).toMatch(NON_BLANK);
  });
});

describe('PRIVACY_POLICY_QUERY over the seed', () => {
  it('has a title and an ISO last-updated date', async () => {
    const policy = await privacyOf();
    expect(policy.title).toBe('Privacy Policy');
    const lastUpdated = present(policy.lastUpdated, 'lastUpdated');
    expect(lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // A real calendar day, not just the right shape (2026-02-30 would roll over).
    expect(new Date(`${lastUpdated}T00:00:00Z`).toISOString().slice(0, 10)).toBe(lastUpdated);
  });

  it('has exactly the seven sections, in order, each with Portable Text', async () => {
    const sections = present((await privacyOf()).sections, 'sections');
    expect(sections.map((section) => section.heading)).toEqual([
      'Introduction',
      'Information We Collect',
      'How We Use Your Information',
      'Data Retention',
      'Data Security',
      'Your Rights',
      'Contact Us',
    ]);
    for (const section of sections) {
      const body = present(section.body, `body of ${section.heading}`);
      expect(body.length, section.heading ?? '').toBeGreaterThan(0);
      expect(
        body.every((block) => block._type === 'block' && Array.isArray(block.children)),
        section.heading ?? '',
      ).toBe(true);
      expect(plainText(body), section.heading ?? '').toMatch(NON_BLANK);
    }
  });

  it('lists the rights in section 6', async () => {
    const rights = plainText(present((await privacyOf()).sections?.[5], 'section 6').body);
    for (const right of [/\baccess\b/i, /\bdelete\b/i, /opt out of location/i, /\breport\b/i]) expect(rights).toMatch(right);
  });

  it('links section 7 to the support page', async () => {
    const body = present(present((await privacyOf()).sections?.[6], 'section 7').body, 'section 7 body');
    const linkedText = body.flatMap((block) => {
      const supportKeys = (block.markDefs ?? []).filter((mark) => mark.href === '/support').map((mark) => mark._key);
      return (block.children ?? []).filter((span) => span.marks?.some((mark) => supportKeys.includes(mark))).map((span) => span.text);
    });
    expect(linkedText).toEqual(['Support page']);
  });

  it('has search metadata', async () => {
    const { seo } = await privacyOf();
    expect(seo?.title).toMatch(NON_BLANK);
    expect(seo?.description).toMatch(NON_BLANK);
  });
});

describe('a page in another language: each field from the translation, else from the default document', () => {
  let seed: SanityDocument[];

  beforeAll(async () => {
    seed = parseNdjson(await readFile(SEED, 'utf8'), SEED);
  });

  /** A query's result over the seed with some fields of document `id` removed (dotted paths, one level deep at most). */
  function withoutFields<T>(id: string, paths: readonly string[], query: string, language: string): Promise<T> {
    const docs = seed.map((doc) => {
      if (doc._id !== id) return doc;
      const copy = structuredClone(doc);
      for (const path of paths) {
        const [field, inner] = path.split('.') as [string, string | undefined];
        if (inner) delete (copy[field] as Record<string, unknown>)[inner];
        else delete copy[field];
      }
      return copy;
    });
    return queryDocuments<T>(docs, query, { language }, 'published');
  }

  const inLanguage = <T>(query: string, language: string) => queryDocuments<T>(seed, query, { language }, 'published');

  it('the seed translates every field: nothing falls back in Spanish, nor in the default language', async () => {
    for (const query of [LANDING_PAGE_QUERY, SUPPORT_PAGE_QUERY, PRIVACY_POLICY_QUERY, SETTINGS_QUERY, SUBSCRIPTION_COPY_QUERY])
      for (const language of ['es', 'en'])
        expect((await inLanguage<{ fallback: string[] }>(query, language)).fallback, language).toEqual([]);
  });

  it('landing: a field the translation lacks comes in English, named in fallback, beside the Spanish fields', async () => {
    const [en, es] = await Promise.all([
      landingOf(),
      withoutFields<LANDING_PAGE_QUERY_RESULT>('landingPage-es', ['faq', 'hero.scrollLabel'], LANDING_PAGE_QUERY, 'es').then((page) =>
        present(page, 'landingPage in es'),
      ),
    ]);
    expect(es.faq).toEqual(en.faq);
    expect(es.hero?.scrollLabel).toBe(en.hero?.scrollLabel);
    expect(es.hero?.headline).not.toBe(en.hero?.headline);
    expect(es.hero?.headline).toMatch(NON_BLANK);
    expect(es.fallback.sort()).toEqual(['faq', 'faq.heading', 'faq.items', 'hero.scrollLabel']);
  });

  it('support: a top-level field and a field of an object, each in English and named', async () => {
    const [en, es] = await Promise.all([
      supportOf(),
      withoutFields<SUPPORT_PAGE_QUERY_RESULT>('supportPage-es', ['faqHeading', 'contact.hoursLabel'], SUPPORT_PAGE_QUERY, 'es').then(
        (page) => present(page, 'supportPage in es'),
      ),
    ]);
    expect(es.faqHeading).toBe(en.faqHeading);
    expect(es.contact?.hoursLabel).toBe(en.contact?.hoursLabel);
    expect(es.contact?.heading).not.toBe(en.contact?.heading);
    expect(es.fallback.sort()).toEqual(['contact.hoursLabel', 'faqHeading']);
  });

  it('settings: a word of the frame the translation lacks, in English and named', async () => {
    const [en, es] = await Promise.all([
      settingsOf(),
      withoutFields<SETTINGS_QUERY_RESULT>('siteSettings-es', ['chrome.backHome', 'supportHours'], SETTINGS_QUERY, 'es').then((page) =>
        present(page, 'siteSettings in es'),
      ),
    ]);
    expect(es.chrome?.backHome).toBe(en.chrome?.backHome);
    expect(es.supportHours).toBe(en.supportHours);
    expect(es.chrome?.skipLink).not.toBe(en.chrome?.skipLink);
    expect(es.fallback.sort()).toEqual(['chrome.backHome', 'supportHours']);
  });

  it('subscription: the words of its emails and pages in English when the translation has none; the product name its own', async () => {
    const [en, es] = await Promise.all([
      inLanguage<SUBSCRIPTION_COPY_QUERY_RESULT>(SUBSCRIPTION_COPY_QUERY, 'en'),
      withoutFields<SUBSCRIPTION_COPY_QUERY_RESULT>('siteSettings-es', ['subscription'], SUBSCRIPTION_COPY_QUERY, 'es'),
    ]);
    expect(es?.subscription).toEqual(en?.subscription);
    expect(es?.fallback).toEqual(['subscription']);
    expect(en?.fallback).toEqual([]);
    // The emails name the default language "".
    expect(await inLanguage(SUBSCRIPTION_COPY_QUERY, '')).toEqual(en);
  });

  it('privacy: the words of the versions pages in English when the translation has none; its dates stay in its language', async () => {
    const es = present(
      await withoutFields<PRIVACY_POLICY_QUERY_RESULT>('privacyPolicy-es', ['versions'], PRIVACY_POLICY_QUERY, 'es'),
      'privacyPolicy in es',
    );
    expect(es.versions).toEqual((await privacyOf()).versions);
    expect(es.locale).toBe('es');
    expect(es.fallback).toEqual(['versions']);
  });

  it('a language with no translation at all: every field in English, each named', async () => {
    const [en, vi] = await Promise.all([landingOf(), inLanguage<LANDING_PAGE_QUERY_RESULT>(LANDING_PAGE_QUERY, 'vi')]);
    const [{ fallback, ...words }, { fallback: none, ...english }] = [present(vi, 'landingPage in vi'), en];
    expect(none).toEqual([]);
    expect(words).toEqual(english);
    expect(fallback).toEqual(expect.arrayContaining(['hero', 'features', 'experience', 'faq', 'stayUpdated', 'seo', 'hero.headline']));
    // The seed's policy has no summary: only what the default document has falls back.
    const privacy = present(await inLanguage<PRIVACY_POLICY_QUERY_RESULT>(PRIVACY_POLICY_QUERY, 'vi'), 'privacyPolicy in vi');
    expect(privacy.locale).toBe('en');
    expect(privacy.fallback).toEqual([
      'title',
      'lastUpdated',
      'lastUpdatedLabel',
      'sections',
      'seo',
      'seo.title',
      'seo.description',
      'versions',
    ]);
  });
});

describe('perspectives', () => {
  const DRAFT_TITLE = 'Privacy Policy (draft under legal review)';
  let dir: string;
  let withDrafts: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'queries-test-'));
    withDrafts = join(dir, 'with-drafts.ndjson');
    const seedLines = (await readFile(SEED, 'utf8')).split('\n').filter((line) => line.trim() !== '');
    const privacy = seedLines.map((line) => JSON.parse(line) as { _id: string }).find((doc) => doc._id === 'privacyPolicy');
    const draft = { ...present(privacy, 'privacyPolicy in the seed'), _id: 'drafts.privacyPolicy', title: DRAFT_TITLE };
    // The draft comes first, so a query that did not hide drafts would pick it with [0].
    await writeFile(withDrafts, [JSON.stringify(draft), ...seedLines].join('\n') + '\n');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the seed itself holds no drafts', async () => {
    expect(await queryDataset<number>(SEED, 'count(*[_id in path("drafts.**")])', {}, 'raw')).toBe(0);
  });

  it('published: every query returns the published content and no draft is visible', async () => {
    expect(await queryDataset<number>(withDrafts, 'count(*[_id in path("drafts.**")])', {}, 'raw')).toBe(1);
    expect(await queryDataset<number>(withDrafts, 'count(*[_id in path("drafts.**")])', {}, 'published')).toBe(0);
    expect(await queryDataset<number>(withDrafts, 'count(*[_type == "privacyPolicy" && !defined(language)])', {}, 'published')).toBe(1);

    expect((await privacyOf(withDrafts)).title).toBe('Privacy Policy');
    for (const [name, load] of [
      ['settings', settingsOf],
      ['landing', landingOf],
      ['support', supportOf],
      ['privacy', privacyOf],
    ] as const) {
      expect(await load(withDrafts), name).toEqual(await load(SEED));
    }
  });

  it('drafts: the draft takes the place of the published document, under its id', async () => {
    expect((await privacyOf(withDrafts, 'drafts')).title).toBe(DRAFT_TITLE);
    expect(await queryDataset(withDrafts, '*[_type == "privacyPolicy" && !defined(language)]{ _id, title }', {}, 'drafts')).toEqual([
      { _id: 'privacyPolicy', title: DRAFT_TITLE },
    ]);
    // Documents without a draft read as published.
    expect(await landingOf(withDrafts, 'drafts')).toEqual(await landingOf(SEED));
  });
});
