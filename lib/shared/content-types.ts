/**
 * The document types of the site's content, each a singleton whose _id is its type name, and each the
 * cache tag of its fetches. The schema (schemas/index.ts), the cache tags (tags.ts), the webhook, the
 * tests and the webhook filter in docs/editing-content.md all follow this list.
 */
export const CONTENT_TYPES = ['siteSettings', 'landingPage', 'supportPage', 'privacyPolicy'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];
