import type { ContentType } from './content-types.ts';

/** The route segment the default language's pages render under; next.config.ts rewrites the unprefixed paths to it. */
export const DEFAULT_SEGMENT = '_default';

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
  /** The site's share image (og:image). */
  shareImage: '/share-image',
} as const;

/**
 * The site's 404 page, for a path proxy.ts finds names no page: the proxy marks the request with this
 * header and next.config.ts rewrites it to NOT_FOUND_PATH, which matches no route, in the process (a
 * proxy's own rewrite goes out over HTTP and back). A visitor who sends the header gets the 404 page.
 */
export const NOT_FOUND_HEADER = 'x-site-not-found';
export const NOT_FOUND_PATH = '/_default/_not-found';

/** NOT_FOUND_HEADER's value that sends a request to NOT_FOUND_PATH. */
export const TO_NOT_FOUND = '1';

/**
 * A made-up path under a language's prefix gets the 404 page in that language: this page under the
 * language's segment, which the proxy asks the server for itself (its request marked with NOT_FOUND_HEADER
 * set to IN_LANGUAGE) and answers visitors with, as a 404 (lib/cache/not-found-page.ts).
 */
export const LANGUAGE_NOT_FOUND_PAGE = 'missing';
export const IN_LANGUAGE = 'language';

/** Whether `path` (in the default language's spelling) is a page of the route table, or below one that has pages below it. */
export const isSitePath = (path: string): boolean =>
  PAGES.some((page) => path === page.path || ('below' in page && path.startsWith(`${page.path}/`)));

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
 * The site's route table: each page once, by its path in the default language. Everything else about
 * routes derives from it: the pages under each language (next.config.ts), the first segments the proxy
 * lets through, the sitemap, the heads, the cache tags and refreshes, and Presentation's locations.
 *
 * - `type`: the document whose words it shows, where Presentation opens it.
 * - `tags`: the content its text is read from (the cache tags its fetches carry); a publish of any of
 *   them refreshes the page. Site settings are on every page (header, footer, notice line) in any case.
 * - `sitemap`: a page of its own for search engines; the others are answers, feeds and images.
 * - `below`: the paths under it are pages too (a version of the policy, an email link's answer).
 */
export const PAGES = [
  { path: ROUTES.home, type: 'landingPage', tags: ['landingPage', 'siteSettings'], sitemap: true },
  { path: ROUTES.support, type: 'supportPage', tags: ['supportPage'], sitemap: true },
  { path: ROUTES.privacy, type: 'privacyPolicy', tags: ['privacyPolicy', 'siteSettings'], sitemap: true, below: true },
  // Its words are the policy's, and so is the record it lists: a publish of the policy refreshes it.
  { path: ROUTES.versions, type: 'privacyPolicy', tags: ['privacyPolicy', 'siteSettings'], sitemap: true, below: true },
  { path: ROUTES.subscription, type: 'siteSettings', tags: ['siteSettings'], below: true },
  { path: ROUTES.shareImage, type: 'landingPage', tags: ['landingPage', 'siteSettings'] },
] as const satisfies readonly {
  path: (typeof ROUTES)[keyof typeof ROUTES];
  type: ContentType;
  tags: readonly ContentType[];
  sitemap?: true;
  below?: true;
}[];

type Listed = Extract<(typeof PAGES)[number], { sitemap: true }>;

export type PublicPath = Listed['path'];
export type PageType = Listed['type'];

const LISTED = PAGES.filter((page): page is Listed => 'sitemap' in page);

/** The pages in the sitemap, in its order. */
export const PUBLIC_PATHS: readonly PublicPath[] = LISTED.map(({ path }) => path);

/** Each page in the sitemap and the document it shows. */
export const PUBLIC_PAGES = Object.fromEntries(LISTED.map(({ path, type }) => [path, type])) as Record<PublicPath, PageType>;

/**
 * The first segments of the site's own paths: its pages', the Studio's, the APIs', Next's and the default
 * language's route segment. Anything else first in a path is a language's tag, or names nothing; so no
 * language may take one of these as its tag.
 */
export const SITE_SEGMENTS: readonly string[] = [
  ...new Set(PAGES.map(({ path }) => path.split('/')[1] ?? '')),
  'studio',
  'api',
  '_next',
  DEFAULT_SEGMENT,
];

/**
 * The site's paths in the default language, which next.config.ts rewrites to its route segment
 * (app/(site)/[lang]): each page, and what is below those with pages below them.
 */
export const DEFAULT_LANGUAGE_PATHS: readonly string[] = PAGES.filter(
  ({ path }) => !PAGES.some((above) => 'below' in above && path.startsWith(`${above.path}/`)),
).flatMap((page) => ('below' in page ? [page.path, `${page.path}/:path*`] : [page.path]));

/** The cache tags of a type's fetches: its own, and those of the pages whose words it goes into ({radius}). */
export const fetchTags = (type: ContentType): ContentType[] => [
  ...new Set<ContentType>([type, ...PAGES.filter((page) => page.type === type).flatMap((page) => page.tags)]),
];

/** The type every page shows: the settings hold its header, footer and notice line. */
const ON_EVERY_PAGE: ContentType = 'siteSettings';

/** The pages in the sitemap that show documents of `type`, by their paths in the default language. */
export const pagesShowing = (type: ContentType): PublicPath[] =>
  type === ON_EVERY_PAGE
    ? [...PUBLIC_PATHS]
    : LISTED.filter(({ tags }) => (tags as readonly ContentType[]).includes(type)).map(({ path }) => path);
