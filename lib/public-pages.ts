/** The public pages, in the order the sitemap lists them. */
export const PUBLIC_PAGES = ['/', '/support', '/privacy'] as const;
