import type { ContentType } from '@/lib/content/types';

/** The public routes, by name, so no module spells a path itself. */
export const ROUTES = { home: '/', support: '/support', privacy: '/privacy' } as const;

/**
 * Each public page and the document it shows, in the order the sitemap lists them. The sitemap, the
 * metadata, the Studio's Presentation locations, the cache refresh and the tests derive from this.
 */
export const PUBLIC_PAGES = {
  [ROUTES.home]: 'landingPage',
  [ROUTES.support]: 'supportPage',
  [ROUTES.privacy]: 'privacyPolicy',
} as const satisfies Record<string, ContentType>;

export type PublicPath = keyof typeof PUBLIC_PAGES;
export type PageType = (typeof PUBLIC_PAGES)[PublicPath];

export const PUBLIC_PATHS = Object.keys(PUBLIC_PAGES) as PublicPath[];
