import 'server-only';

import type { Metadata } from 'next';

import { siteUrl } from '@/lib/env/public';
import { ROUTES, type PublicPath } from '@/lib/shared/public-pages';

import { getLandingPage, getNotFoundCopy, getPolicyVersions, getPrivacyPolicy, getSettings, getSupportPage } from './index';
import type { PageMeta } from '@/lib/shared/view-fields';

/** The site's share image (app/(site)/share-image/route.tsx), the size link previews expect. */
export const SHARE_IMAGE = { path: '/share-image', size: { width: 1200, height: 630 } } as const;

/** The view each public page shows. */
const PAGE_VIEWS: Record<PublicPath, () => Promise<{ meta: PageMeta }>> = {
  [ROUTES.home]: getLandingPage,
  [ROUTES.support]: getSupportPage,
  [ROUTES.privacy]: getPrivacyPolicy,
  [ROUTES.versions]: getPolicyVersions,
};

/** A public page's <head>: its SEO title and description, and its canonical URL. */
export async function pageMetadata(path: PublicPath): Promise<Metadata> {
  return headMetadata((await PAGE_VIEWS[path]()).meta, path);
}

/** The <head> of the page at `path` (a public page, or one of the policy's versions). */
export function headMetadata(meta: PageMeta, path: string): Metadata {
  return {
    // The home page's title stands alone; the others go into the layout's "… · product" template.
    title: path === ROUTES.home ? { absolute: meta.title } : meta.title,
    description: meta.description,
    alternates: {
      canonical: path,
      // Feed readers find the policy's feed from the policy and its versions.
      ...(path.startsWith(ROUTES.privacy) ? { types: { 'application/atom+xml': ROUTES.feed } } : {}),
    },
  };
}

/** What every page of the site shares: the product name in titles and Open Graph, the description. */
export async function siteMetadata(): Promise<Metadata> {
  const { meta, chrome } = await getSettings();
  return {
    metadataBase: new URL(siteUrl()),
    title: { default: meta.name, template: `%s · ${meta.name}` },
    description: meta.description,
    applicationName: meta.name,
    openGraph: {
      siteName: meta.name,
      type: 'website',
      images: [{ url: SHARE_IMAGE.path, ...SHARE_IMAGE.size, alt: chrome.shareImageAlt, type: 'image/png' }],
    },
  };
}

/** The 404 pages' <head>: their own title (no product name, as on the unmatched paths' page), kept out of search. */
export async function notFoundMetadata(): Promise<Metadata> {
  const { title, description } = await getNotFoundCopy();
  return { title: { absolute: title }, description, robots: { index: false } };
}
