import { stegaClean } from '@sanity/client/stega';

/**
 * The pieces every view in views.ts is made of: how a query result's text becomes visible text (stega
 * kept, for click-to-edit in draft mode) or clean text (attributes, metadata, values the code compares).
 */

export type Maybe<T> = T | null | undefined;
type Seo = Maybe<{ title: string | null; description: string | null }>;
type Link = { _key: string; label: string | null; href: string | null };
type FaqItem = { _key: string; question: string | null; answer: string | null };

/** Visible text: kept as it comes (stega included in draft mode), empty when the editor left it empty. */
export const text = (value: Maybe<string>): string => value ?? '';
/** Text for an attribute, metadata or a value the code compares. */
export const clean = (value: Maybe<string>): string => stegaClean(value ?? '');
/** An optional clean value: null when empty, so the page can leave out what it belongs to. */
export const cleanOrNull = (value: Maybe<string>): string | null => (value ? stegaClean(value) : null);
/** The named visible texts of one object (a form's labels, a page's messages), each as `text` keeps it. */
export function texts<K extends string>(source: Maybe<{ [P in K]?: Maybe<string> }>, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, text(source?.[key])])) as Record<K, string>;
}

/**
 * A day of the record as readers see it ("November 22, 2026"): the editor-set date, never today's. In
 * `locale` (a BCP 47 tag) when given: an email's reader's ("22 de noviembre de 2026").
 */
export function formatDate(isoDate: string, locale = 'en-US'): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`));
}

/** Title and description for a page's <head> (lib/content/metadata.ts). */
export type PageMeta = { title: string; description: string | undefined };

export const pageMeta = (seo: Seo): PageMeta => ({ title: clean(seo?.title), description: cleanOrNull(seo?.description) ?? undefined });

/** Links as editors enter them: a site path, an https:// or mailto: address, or nothing yet (href null). */
export const links = (list: Maybe<Link[]>) =>
  (list ?? []).map((link) => ({ _key: link._key, label: text(link.label), href: cleanOrNull(link.href) }));

/** A FAQ with its FAQPage structured data, so search results can show the questions. */
export function faqView(heading: Maybe<string>, list: Maybe<FaqItem[]>) {
  const items = (list ?? []).map((item) => ({ _key: item._key, question: text(item.question), answer: text(item.answer) }));
  const structuredData = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: stegaClean(item.question),
      acceptedAnswer: { '@type': 'Answer', text: stegaClean(item.answer) },
    })),
  };
  return { heading: text(heading), items, structuredData };
}
