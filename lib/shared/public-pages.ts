import type { ContentType } from './content-types';

/**
 * The public routes, by name, so no module spells a path itself. The subscription's pages (`confirm`,
 * `unsubscribe`) and the unsubscribe of mail clients (`oneClick`, RFC 8058) are opened from the emails'
 * links, each with its token (`withToken`); their answers are pages under `subscription` (linkResultPath).
 * None is in the sitemap, nor is the policy's Atom feed (`feed`).
 */
export const ROUTES = {
  home: '/',
  support: '/support',
  privacy: '/privacy',
  versions: '/privacy/versions',
  /** The Atom feed of the policy's versions and announcements. */
  feed: '/privacy/versions/feed.xml',
  subscription: '/subscription',
  confirm: '/subscription/confirm',
  unsubscribe: '/subscription/unsubscribe',
  oneClick: '/subscription/unsubscribe/one-click',
} as const;

/**
 * The site's paths in the default language, as next.config.ts rewrites them to its route segment: every
 * page and route under app/(site)/[lang] (a new top-level path there needs its line here).
 */
export const DEFAULT_LANGUAGE_PATHS = ['/', '/support', '/privacy', '/privacy/:path*', '/subscription/:path*', '/share-image'];

/**
 * The first segments of the site's own paths: its pages', the Studio's, the APIs', Next's and the default
 * language's route segment. Anything else first in a path is a language's tag, or names nothing; so no
 * language may take one of these as its tag.
 */
export const SITE_SEGMENTS: readonly string[] = ['', 'support', 'privacy', 'subscription', 'share-image', 'studio', 'api', '_next', '_default'];

/**
 * The site's 404 page, for a path proxy.ts finds names no page: the proxy marks the request with this
 * header and next.config.ts rewrites it to NOT_FOUND_PATH, which matches no route, in the process (a
 * proxy's own rewrite goes out over HTTP and back). A visitor who sends the header gets the 404 page.
 */
export const NOT_FOUND_HEADER = 'x-site-not-found';
export const NOT_FOUND_PATH = '/_default/_not-found';

/** The page of what following a link of the emails came to (lib/forms/form-state.ts LINK_RESULTS). */
export const linkResultPath = (result: string) => `${ROUTES.subscription}/${result}`;

/** The query parameter of an email link's token. */
export const TOKEN_PARAM = 'token';
export const withToken = (path: string, token: string) => `${path}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;

/** An earlier version of the privacy policy, by its date (YYYY-MM-DD), and what changed in it. */
export const versionPath = (date: string) => `${ROUTES.versions}/${date}`;
export const changesPath = (date: string) => `${versionPath(date)}/changes`;
/** Page `n` of the list of versions: the first is the list itself. */
export const versionsPagePath = (n: number) => (n === 1 ? ROUTES.versions : `${ROUTES.versions}/page/${n}`);

/**
 * Each public page and the document it shows, in the order the sitemap lists them. The sitemap, the
 * metadata, the Studio's Presentation locations, the cache refresh and the tests derive from this.
 */
export const PUBLIC_PAGES = {
  [ROUTES.home]: 'landingPage',
  [ROUTES.support]: 'supportPage',
  [ROUTES.privacy]: 'privacyPolicy',
  // Its words are the policy's, and so is the record it lists: a publish of the policy refreshes it.
  [ROUTES.versions]: 'privacyPolicy',
} as const satisfies Record<string, ContentType>;

export type PublicPath = keyof typeof PUBLIC_PAGES;
export type PageType = (typeof PUBLIC_PAGES)[PublicPath];

export const PUBLIC_PATHS = Object.keys(PUBLIC_PAGES) as PublicPath[];

/** The type every page shows: the settings hold its header, footer and notice line. */
const ON_EVERY_PAGE: ContentType = 'siteSettings';

/** The public pages that show documents of `type`, by their paths in the default language. */
export const pagesShowing = (type: ContentType): PublicPath[] =>
  type === ON_EVERY_PAGE ? PUBLIC_PATHS : PUBLIC_PATHS.filter((path) => PUBLIC_PAGES[path] === type);
