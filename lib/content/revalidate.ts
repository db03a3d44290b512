import 'server-only';

import { revalidateTag } from 'next/cache';
import { after } from 'next/server';

import { refreshCachedPages } from '@/lib/cache-refresh';

import { tagsForDocumentType, type ContentTag } from './tags';

/**
 * A publish of documents of these types reaches the pages that show them: their cache tags expire, and
 * after the answer the caching proxy in front (deploy/'s nginx) takes the new pages. Called by the publish
 * webhook (hosted Sanity) and by the local lake's route (the embedded Studio). Returns the tags.
 */
export function revalidateContent(types: Iterable<unknown>): ContentTag[] {
  const tags = [...new Set([...types].flatMap(tagsForDocumentType))];
  for (const tag of tags) {
    // { expire: 0 } rather than 'max': stale-while-revalidate would serve the old text to the next
    // visitor; expiring now makes the first load after this answer render the new content.
    revalidateTag(tag, { expire: 0 });
  }
  // After the answer, because Next applies the tags only once the handler has returned.
  if (tags.length) after(refreshCachedPages);
  return tags;
}
