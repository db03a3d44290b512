import type { ContentTag } from './fetch';

const CONTENT_TAGS: readonly ContentTag[] = ['siteSettings', 'landingPage', 'supportPage', 'privacyPolicy'];

/**
 * The cache tags a changed document invalidates. Fetches are tagged by the
 * document types they read (settings appear on every page through the layout),
 * so a type's own tag refreshes exactly the pages that show it.
 */
export function tagsForDocumentType(type: unknown): ContentTag[] {
  return CONTENT_TAGS.filter((tag) => tag === type);
}
