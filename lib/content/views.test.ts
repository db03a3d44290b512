import { stegaClean } from '@sanity/client/stega';
// What Sanity's client uses to encode stega in draft mode (a dependency of @sanity/client).
import { vercelStegaCombine } from '@vercel/stega';
import { beforeAll, describe, expect, it } from 'vitest';

import { REQUEST_TYPES } from '@/lib/forms/request-types';

import { readDataset, type Doc } from '../../testkit/dataset';
import { queryResults, resultsOf, SEED_FILE, stringsIn } from '../../testkit/seed-queries';
import { toPrivacyView } from './policy-view';
import { toChangesView, toVersionListView } from './version-views';
import { queryDocuments } from '@school-site/content-lake';
import type { SUBSCRIPTION_COPY_QUERY_RESULT } from '@/sanity.types';

import { SUBSCRIPTION_COPY_QUERY } from './queries';
import { toLandingView, toSettingsView, toSubscriptionView, toSupportView } from './views';

type Results = Awaited<ReturnType<typeof queryResults>>;

const views = (results: Results) => ({
  settings: toSettingsView(results.settings),
  landing: toLandingView(results.landing, results.settings),
  support: toSupportView(results.support),
  privacy: toPrivacyView(results.privacy, results.settings),
});

/** The results as draft mode delivers them: every string value carries an invisible source marker. */
function withStega<T>(value: T): T {
  if (typeof value === 'string') return vercelStegaCombine(value, { origin: 'sanity.io', href: '/studio' }) as T;
  if (Array.isArray(value)) return value.map(withStega) as T;
  if (value !== null && typeof value === 'object') {
    // Sanity never encodes keys and types (_key, _type); neither does this.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key.startsWith('_') ? item : withStega(item)])) as T;
  }
  return value;
}

let seed: Results;

beforeAll(async () => {
  seed = await queryResults();
});

describe('the views of the seed', () => {
  it('settings: the product name, and the links as the seed gives them', () => {
    const settings = toSettingsView(seed.settings);
    expect(settings.productName).toBe(seed.settings.productName);
    expect(settings.meta).toEqual({ name: seed.settings.productName, description: seed.settings.description });
    expect(settings.headerLinks.map(({ label, href }) => [label, href])).toEqual(
      seed.settings.headerLinks?.map(({ label, href }) => [label, href]),
    );
    expect(settings.footerColumns.flatMap((column) => column.links).length).toBeGreaterThan(0);
  });

  it('landing: {radius} filled everywhere from the settings', () => {
    const landing = toLandingView(seed.landing, seed.settings);
    expect(stringsIn(seed.landing).some((text) => text.includes('{radius}'))).toBe(true);
    expect(stringsIn(landing).filter((text) => text.includes('{radius}'))).toEqual([]);
    expect(landing.features.cards[0]?.title).toBe(`${seed.settings.radiusMiles}-Mile Radius`);
  });

  it('landing: each store button has its label and the listing from the settings, none while the URL is empty', () => {
    const landing = toLandingView(seed.landing, seed.settings);
    expect(landing.hero.stores).toMatchObject([
      { key: 'appStore', label: seed.landing.hero?.appStoreLabel, href: null },
      { key: 'playStore', label: seed.landing.hero?.playStoreLabel, href: null },
    ]);
    const listed = toLandingView(seed.landing, { ...seed.settings, appStoreUrl: 'https://apps.apple.com/app/id1', playStoreUrl: '' });
    expect(listed.hero.stores.map(({ href }) => href)).toEqual(['https://apps.apple.com/app/id1', null]);
  });

  it('FAQs: FAQPage structured data with every question and answer', () => {
    const { landing, support } = views(seed);
    for (const faq of [landing.faq, support.faq]) {
      expect(faq.items.length).toBeGreaterThan(0);
      expect(faq.structuredData).toEqual({
        '@context': 'https://schema.org',
        '@type': 'FAQPage',
        mainEntity: faq.items.map(({ question, answer }) => ({
          '@type': 'Question',
          name: question,
          acceptedAnswer: { '@type': 'Answer', text: answer },
        })),
      });
    }
  });

  it('support: one card per request type, and the SEO title for the metadata', () => {
    const support = toSupportView(seed.support);
    expect(support.cards.map(({ requestType }) => requestType).sort()).toEqual([...REQUEST_TYPES].sort());
    expect(support.meta).toEqual({ title: seed.support.seo?.title, description: seed.support.seo?.description });
  });

  it('privacy: the editor-set date, as written and in words', () => {
    const privacy = toPrivacyView(seed.privacy, seed.settings);
    expect(seed.privacy.lastUpdated).toBe('2026-11-22');
    expect(privacy.lastUpdated).toEqual({ label: seed.privacy.lastUpdatedLabel, dateTime: '2026-11-22', text: 'November 22, 2026' });
    expect(privacy.sections.length).toBe(seed.privacy.sections?.length);
  });
});

describe('stega markers (draft mode)', () => {
  let plain: ReturnType<typeof views>;
  let marked: ReturnType<typeof views>;

  beforeAll(() => {
    plain = views(seed);
    marked = views(withStega(seed));
  });

  it('stay in visible text, for click-to-edit', () => {
    expect(marked.landing.hero.headline).not.toBe(plain.landing.hero.headline);
    expect(stegaClean(marked.landing.hero.headline)).toBe(plain.landing.hero.headline);
    expect(marked.privacy.title).not.toBe(plain.privacy.title);
  });

  it('are gone from metadata, attributes, link targets, form values and structured data', () => {
    for (const page of ['landing', 'support', 'privacy'] as const) expect(marked[page].meta, page).toEqual(plain[page].meta);
    expect(marked.settings.meta).toEqual(plain.settings.meta);
    expect(marked.settings.headerLinks.map(({ href }) => href)).toEqual(plain.settings.headerLinks.map(({ href }) => href));
    expect(marked.settings.footerColumns.flatMap(({ links }) => links.map(({ href }) => href))).toEqual(
      plain.settings.footerColumns.flatMap(({ links }) => links.map(({ href }) => href)),
    );
    expect(marked.landing.hero.scrollLabel).toBe(plain.landing.hero.scrollLabel);
    expect(marked.landing.stayUpdated.placeholder).toBe(plain.landing.stayUpdated.placeholder);
    expect(marked.landing.features.cards.map(({ icon }) => icon)).toEqual(plain.landing.features.cards.map(({ icon }) => icon));
    expect(marked.support.cards.map(({ requestType }) => requestType)).toEqual(plain.support.cards.map(({ requestType }) => requestType));
    expect(marked.landing.faq.structuredData).toEqual(plain.landing.faq.structuredData);
    expect(marked.support.faq.structuredData).toEqual(plain.support.faq.structuredData);
    // The date is an attribute and a formatted value; the label before it is visible text.
    expect({ ...marked.privacy.lastUpdated, label: '' }).toEqual({ ...plain.privacy.lastUpdated, label: '' });
    const linkTargets = (view: typeof plain) =>
      view.privacy.sections.flatMap(({ body }) => body.flatMap((block) => block.markDefs ?? []).map(({ href }) => href));
    expect(linkTargets(plain).length).toBeGreaterThan(0);
    expect(linkTargets(marked)).toEqual(linkTargets(plain));
  });
});

describe('what an editor left empty', () => {
  it('renders as empty text and lists, with the default icon and request type', () => {
    const settings = { ...seed.settings, headerLinks: null, footerColumns: null, productName: null, description: null };
    const landing = toLandingView(
      {
        hero: null,
        features: { heading: null, intro: null, cards: [{ _key: 'a', title: null, text: null, icon: null }] },
        experience: null,
        faq: null,
        stayUpdated: null,
        seo: null,
        fallback: [],
      },
      settings,
    );
    expect(toSettingsView(settings)).toMatchObject({
      productName: '',
      meta: { name: '', description: undefined },
      headerLinks: [],
      footerColumns: [],
    });
    expect(landing.hero).toMatchObject({ headline: '', scrollLabel: '' });
    expect(landing.features.cards).toEqual([{ _key: 'a', title: '', text: '', icon: 'radius' }]);
    expect(landing.faq).toMatchObject({ heading: '', items: [] });
    expect(landing.meta).toEqual({ title: '', description: undefined });
    const support = toSupportView({
      ...seed.support,
      cards: [{ _key: 'c', title: null, text: null, modalTitle: null, requestType: null }],
    });
    expect(support.cards).toEqual([{ _key: 'c', title: '', text: '', modalTitle: '', requestType: 'issue' }]);
    const empty = { title: null, lastUpdated: null, lastUpdatedLabel: null, summary: null, sections: null, seo: null };
    expect(toPrivacyView({ ...empty, locale: 'en', versions: null, previousDate: null, fallback: [] }, settings)).toMatchObject({
      meta: { title: '', description: undefined },
      title: '',
      lastUpdated: null,
      summary: null,
      versionsLink: { label: '', href: '/privacy/versions' },
      changesLink: null,
      sections: [],
    });
  });
});

describe('the copy of the forms, the frame and the status pages', () => {
  it('landing: a store button without a URL carries its line, with the product name filled in', () => {
    const [appStore, playStore] = toLandingView(seed.landing, seed.settings).hero.stores;
    expect(seed.settings.appStoreFallback).toContain('{productName}');
    // The name a part of its own, which the page isolates (<bdi>).
    const name = { isolate: seed.settings.productName };
    expect(appStore?.fallback).toEqual(['Search “', name, '” in the App Store']);
    expect(playStore?.fallback).toEqual(['Search “', name, '” on Google Play']);
  });

  it('settings: every form message by code, the field names, the 404 and error pages', () => {
    const settings = toSettingsView(seed.settings);
    expect(settings.messages.messages.failed).toBe(seed.settings.formMessages?.failed);
    expect(settings.messages.fieldNames).toEqual({
      email: seed.settings.fieldNames?.email,
      subject: seed.settings.fieldNames?.subject,
      message: seed.settings.fieldNames?.message,
    });
    expect(settings.notFound.heading).toBe(seed.settings.notFound?.heading);
    expect(settings.errorPage.retry).toBe(seed.settings.errorPage?.retry);
    expect(settings.chrome.skipLink).toBe(seed.settings.chrome?.skipLink);
  });

  it('support: the request form labels and states', () => {
    const { langOf, ...form } = toSupportView(seed.support).form;
    expect(Object.values(form).every((text) => /\S/.test(text))).toBe(true);
    expect(form.success).toBe(seed.support.form?.success);
    expect(langOf).toEqual({});
  });

  it('privacy: the label before the date', () => {
    expect(toPrivacyView(seed.privacy, seed.settings).lastUpdated?.label).toBe(seed.privacy.lastUpdatedLabel);
  });

  it('subscription: each sentence with the product name isolated, the words for titles and buttons filled in', async () => {
    const result = await queryDocuments<SUBSCRIPTION_COPY_QUERY_RESULT>(
      await readDataset(SEED_FILE),
      SUBSCRIPTION_COPY_QUERY,
      { language: 'en' },
      'published',
    );
    const { words, sentences, lang } = toSubscriptionView(result, null);
    const name = result?.productName ?? '';
    expect(sentences.confirmIntro).toEqual(['Press the button to start getting emails from ', { isolate: name }, ' at this address.']);
    expect(words.confirmIntro).toBe(`Press the button to start getting emails from ${name} at this address.`);
    expect(sentences.confirmHeading).toEqual([words.confirmHeading]);
    expect(lang).toBeUndefined();
    expect(toSubscriptionView({ ...result!, fallback: ['subscription'] }, { lang: 'en', dir: 'ltr' }).lang).toEqual({
      lang: 'en',
      dir: 'ltr',
    });
  });

  it('draft mode: the share image description and the 404 description are clean, the visible texts keep their markers', () => {
    const settings = toSettingsView(withStega(seed.settings));
    expect(settings.chrome.shareImageAlt).toBe(seed.settings.chrome?.shareImageAlt);
    expect(settings.notFound.description).toBe(seed.settings.notFound?.description);
    expect(settings.chrome.skipLink).not.toBe(seed.settings.chrome?.skipLink);
  });
});

describe('the default language on a page in another', () => {
  const EN = { lang: 'en', dir: 'ltr' } as const;
  let documents: Doc[];

  beforeAll(async () => {
    documents = await readDataset(SEED_FILE);
  });

  /** The seed with fields removed from translation `id` (dotted paths, one level deep at most). */
  const without = (id: string, paths: readonly string[]) =>
    documents.map((doc) => {
      if (doc._id !== id) return doc;
      const copy = structuredClone(doc);
      for (const [field, inner] of paths.map((path) => path.split('.') as [string, string | undefined]))
        if (inner) delete (copy[field] as Record<string, unknown>)[inner];
        else delete copy[field];
      return copy;
    });

  it('marks each field a translation lacks, and a section it lacks whole, with the default language and its direction', async () => {
    const results = await resultsOf(
      without('landingPage-es', ['faq', 'hero.scrollLabel', 'stayUpdated.successMessage']).map((doc) =>
        doc._id === 'siteSettings-es'
          ? { ...doc, chrome: { ...(doc.chrome as object), backHome: undefined }, supportHours: undefined }
          : doc,
      ),
      'es',
    );
    const [landing, settings] = [toLandingView(results.landing, results.settings, EN), toSettingsView(results.settings, EN)];
    expect(landing.faq.lang).toEqual(EN);
    expect(landing.faq.langOf).toEqual({});
    expect(landing.hero.langOf).toEqual({ scrollLabel: EN });
    expect(landing.stayUpdated.langOf).toEqual({ successMessage: EN });
    for (const section of [landing.features, landing.experience]) expect(section).toMatchObject({ langOf: {} });
    expect(landing.features.lang).toBeUndefined();
    expect(settings.chrome.langOf).toEqual({ backHome: EN });
    expect(settings.langOf).toEqual({ supportHours: EN });
    expect(settings.messages.lang).toBeUndefined();
  });

  it('marks every section of a page with no translation at all', async () => {
    const results = await resultsOf(documents, 'vi');
    const [landing, support] = [toLandingView(results.landing, results.settings, EN), toSupportView(results.support, EN)];
    for (const section of [landing.features, landing.experience, landing.faq]) expect(section.lang).toEqual(EN);
    // The hero and the sign-up hold the settings' words too: each of their fields is marked instead.
    expect(Object.keys(landing.hero.langOf).sort()).toEqual(['appStoreLabel', 'headline', 'playStoreLabel', 'scrollLabel', 'text']);
    expect(landing.hero.stores.map(({ langOf }) => langOf)).toEqual([
      { label: EN, fallback: EN },
      { label: EN, fallback: EN },
    ]);
    expect(support.langOf).toEqual({ heading: EN, intro: EN });
    expect(support.cards.every(({ lang }) => lang === EN)).toBe(true);
    expect(support.contact.langOf).toEqual({ heading: EN, text: EN, replyTimeLabel: EN, hoursLabel: EN });
    expect(support.faq.langOf).toEqual({ heading: EN, items: EN });
    expect(Object.keys(support.form.langOf)).toHaveLength(9);
    expect(toSettingsView(results.settings, EN).messages.lang).toEqual(EN);
  });

  it('marks nothing on the default language’s own pages, nor on a page whose translation is whole', async () => {
    const [english, spanish] = await Promise.all([resultsOf(documents, 'en'), resultsOf(documents, 'es')]);
    for (const [results, lang] of [
      [english, null],
      [spanish, EN],
    ] as const) {
      const { governing, ...policy } = toPrivacyView(results.privacy, results.settings, undefined, lang).langOf;
      const views = JSON.stringify([
        toLandingView(results.landing, results.settings, lang),
        toSupportView(results.support, lang),
        toSettingsView(results.settings, lang),
        policy,
      ]);
      // Attributes left undefined are no attributes: JSON drops them as React does.
      expect(views).not.toContain('"lang"');
      // What the governing text would carry, were it shown instead of the reader's.
      expect(governing).toEqual(lang ?? undefined);
    }
    // The default language's pages mark nothing even with a fallback list.
    expect(toLandingView({ ...english.landing, fallback: ['faq'] }, english.settings, null).faq.lang).toBeUndefined();
  });

  it('privacy: the governing text, while the reader’s translation is not ready, carries the default language', () => {
    const version = { title: 'Privacy Policy', summary: null, sections: seed.privacy.sections, date: '2026-11-22' };
    const page = (pending: boolean) =>
      toPrivacyView(seed.privacy, seed.settings, { version: { ...version, pending }, previousDate: null, upcoming: null }, EN).langOf;
    expect(page(true)).toMatchObject({ title: EN, summary: EN, sections: EN });
    expect(page(false)).toMatchObject({ title: undefined, summary: undefined, sections: undefined });
    // In draft mode (no record), the document's own fields, each as the query says.
    const draft = toPrivacyView({ ...seed.privacy, fallback: ['sections', 'versions'] }, seed.settings, undefined, EN).langOf;
    expect(draft).toEqual({ title: undefined, summary: undefined, sections: EN, lastUpdatedLabel: undefined, versions: EN, governing: EN });
  });

  it('the list of versions: the record’s summaries are the default language’s; its words, as the policy’s are', () => {
    const policy = toPrivacyView({ ...seed.privacy, fallback: ['versions'] }, seed.settings, undefined, EN);
    const entry = {
      date: '2026-11-22',
      summary: 'Clearer wording',
      material: false,
      publishedAt: '2026-11-01T00:00:00Z',
      correctedAt: null,
      withdrawnAt: null,
    };
    const schedule = { versions: [entry], today: '2026-12-01', current: { date: entry.date }, timeZone: 'UTC' };
    expect(toVersionListView(schedule, policy.versions, 1, policy.langOf)?.langOf).toEqual({ summaries: EN, words: EN });
    expect(toVersionListView(schedule, policy.versions, 1, toPrivacyView(seed.privacy, seed.settings).langOf)?.langOf).toEqual({});
  });

  it('changes: two versions compared in the default language carry it; the page’s own words, the policy’s', () => {
    const policy = toPrivacyView({ ...seed.privacy, fallback: ['versions'] }, seed.settings, undefined, EN);
    const [after, before] = [
      { date: '2026-11-22', summary: null, sections: seed.privacy.sections, pending: true },
      { date: '2026-10-01', sections: seed.privacy.sections },
    ];
    const changes = (pending: boolean) => toChangesView({ ...after, pending }, before, true, policy.versions, seed.settings, policy.langOf);
    expect(changes(true).langOf).toEqual({ text: EN, words: EN });
    expect(changes(false).langOf).toEqual({ text: undefined, words: EN });
  });
});
