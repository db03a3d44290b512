import 'server-only';

import { revalidateTag } from 'next/cache';
import { after } from 'next/server';

import { expireAndRefresh, refreshCachedPages } from '@/lib/cache/cache-refresh';
import { forgetMailCopy } from './mail-copy-cache';

import { tagsForDocumentType, type ContentTag } from './tags';

/**
 * The cache tags a publish of documents of these types expires. The emails' words are Site settings'
 * too, kept by this process's mail senders outside Next's caches (lib/mail/copy.ts): they go with them.
 */
function tagsOf(types: Iterable<unknown>): ContentTag[] {
  const tags = [...new Set([...types].flatMap(tagsForDocumentType))];
  if (tags.includes('siteSettings')) forgetMailCopy();
  return tags;
}

/**
 * The publish webhook's refresh (hosted Sanity, in the webhook's request): the tags expire, and after the
 * answer the caching proxy in front (deploy/'s nginx) takes the new pages. Returns the tags.
 */
export function revalidateContent(types: Iterable<unknown>): ContentTag[] {
  const tags = tagsOf(types);
  for (const tag of tags) {
    // { expire: 0 } rather than 'max': stale-while-revalidate would serve the old text to the next
    // visitor; expiring now makes the first load after this answer render the new content.
    revalidateTag(tag, { expire: 0 });
  }
  // After the answer, because Next applies the tags only once the handler has returned.
  if (tags.length) after(refreshCachedPages);
  return tags;
}

/**
 * The embedded lake's refresh, the one path of every commit that changed published documents, whatever
 * made it: the Studio's or a script's request, the scheduler publishing a release, a hand edit of the
 * file. The tags expire before this returns, inside the commit, so the request that committed answers
 * after its pages changed; then the caching proxy in front takes the new pages.
 */
export function expireContent(types: Iterable<unknown>): ContentTag[] {
  const tags = tagsOf(types);
  if (tags.length === 0) return tags;
  expireAndRefresh(tags, 'a publish');
  return tags;
}
