import 'server-only';

import type { Metadata } from 'next';

import { siteUrl } from '@/lib/env/public';
import { PUBLIC_PAGES, ROUTES, type PageType, type PublicPath } from '@/lib/public-pages';

import { getLandingPage, getPrivacyPolicy, getSettings, getSupportPage } from './index';
import type { PageMeta } from './view-fields';

/** The site's share image (app/(site)/share-image/route.tsx), the size link previews expect. */
export const SHARE_IMAGE = { path: '/share-image', size: { width: 1200, height: 630 } } as const;

/** The getter of the document each public page shows. */
const PAGE_VIEWS: Record<PageType, () => Promise<{ meta: PageMeta }>> = {
  landingPage: getLandingPage,
  supportPage: getSupportPage,
  privacyPolicy: getPrivacyPolicy,
};

/** A public page's <head>: its SEO title and description, and its canonical URL. */
export async function pageMetadata(path: PublicPath): Promise<Metadata> {
  const { meta } = await PAGE_VIEWS[PUBLIC_PAGES[path]]();
  return {
    // The home page's title stands alone; the others go into the layout's "… · product" template.
    title: path === ROUTES.home ? { absolute: meta.title } : meta.title,
    description: meta.description,
    alternates: { canonical: path },
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
