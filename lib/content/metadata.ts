import 'server-only';

import type { Metadata } from 'next';

import { siteUrl } from '@/lib/env/public';
import { ROUTES, type PublicPath } from '@/lib/shared/public-pages';

import { localePath } from '@/lib/shared/languages';

import { getNotFoundCopy, getSettings, getSiteLanguages } from './index';
import type { PageMeta } from '@/lib/shared/view-fields';

/** The size of the site's share image (app/(site)/share-image/route.tsx) that link previews expect. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** A public page's <head> from its view (`read`, the page's own getter): its SEO title and description, and its canonical URL. */
export async function pageMetadata(
  path: PublicPath,
  language: string,
  read: (language: string) => Promise<{ meta: PageMeta }>,
): Promise<Metadata> {
  return headMetadata((await read(language)).meta, path, language);
}

/** The same page in every language of the site, by tag, and x-default (the default language's): for hreflang and the sitemap. */
export async function pageAlternates(path: string): Promise<Record<string, string>> {
  const site = await getSiteLanguages();
  const pairs: [string, string][] = [
    ...site.languages.map(({ tag }): [string, string] => [tag, localePath(path, tag, site)]),
    ['x-default', path],
  ];
  return Object.fromEntries(pairs);
}

/** The <head> of the page at `path` (a public page, or one of the policy's versions) in `language`. */
export async function headMetadata(meta: PageMeta, path: string, language: string): Promise<Metadata> {
  const site = await getSiteLanguages();
  return {
    // The home page's title stands alone; the others go into the layout's "… · product" template.
    title: path === ROUTES.home ? { absolute: meta.title } : meta.title,
    description: meta.description,
    alternates: {
      canonical: localePath(path, language, site),
      // hreflang: this page in each language the site has.
      languages: await pageAlternates(path),
      // Feed readers find the policy's feed from the policy and its versions.
      ...(path.startsWith(ROUTES.privacy) ? { types: { 'application/atom+xml': localePath(ROUTES.feed, language, site) } } : {}),
    },
  };
}

/** What every page of the site shares: the product name in titles and Open Graph, the description. */
export async function siteMetadata(language: string): Promise<Metadata> {
  const [{ meta, chrome }, site] = await Promise.all([getSettings(language), getSiteLanguages()]);
  return {
    metadataBase: new URL(siteUrl()),
    title: { default: meta.name, template: `%s · ${meta.name}` },
    description: meta.description,
    applicationName: meta.name,
    openGraph: {
      siteName: meta.name,
      type: 'website',
      locale: language,
      images: [{ url: localePath(ROUTES.shareImage, language, site), ...SHARE_IMAGE_SIZE, alt: chrome.shareImageAlt, type: 'image/png' }],
    },
  };
}

/** The 404 pages' <head>: their own title (no product name, as on the unmatched paths' page), kept out of search. */
export async function notFoundMetadata(language?: string): Promise<Metadata> {
  const { title, description } = await getNotFoundCopy(language);
  return { title: { absolute: title }, description, robots: { index: false } };
}
