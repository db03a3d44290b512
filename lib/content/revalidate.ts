import 'server-only';

import { revalidateTag } from 'next/cache';
import { after } from 'next/server';

import { expireAndRefresh, refreshCachedPages, type ChangedPages } from '@/lib/cache/cache-refresh';
import { pagesShowing } from '@/lib/shared/public-pages';
import { forgetMailCopy } from './mail-copy-cache';

import { tagsForDocumentType, type ContentTag } from './tags';

/**
 * A published document that changed: its type, and the language of its text, none for the default
 * language's documents (which every translation falls back to) and for those of no language.
 */
export type ChangedDocument = { type: unknown; language?: unknown };

/**
 * The cache tags a publish of these documents expires. The emails' words are Site settings'
 * too, kept by this process's mail senders outside Next's caches (lib/mail/copy.ts): they go with them.
 */
function tagsOf(changes: readonly ChangedDocument[]): ContentTag[] {
  const tags = [...new Set(changes.flatMap(({ type }) => tagsForDocumentType(type)))];
  if (tags.includes('siteSettings')) forgetMailCopy();
  return tags;
}

/** The pages each document shows on, in its language (lib/cache/cache-refresh.ts pathsShowing). */
const pagesOf = (changes: readonly ChangedDocument[]): ChangedPages[] =>
  changes.map(({ type, language }) => ({
    pages: tagsForDocumentType(type).flatMap(pagesShowing),
    language: typeof language === 'string' && language !== '' ? language : null,
  }));

/**
 * The publish webhook's refresh (hosted Sanity, in the webhook's request): the tags expire, and after the
 * answer the caching proxy in front (deploy/'s nginx) takes the changed pages. Returns the tags.
 */
export function revalidateContent(changes: readonly ChangedDocument[]): ContentTag[] {
  const tags = tagsOf(changes);
  for (const tag of tags) {
    // { expire: 0 } rather than 'max': stale-while-revalidate would serve the old text to the next
    // visitor; expiring now makes the first load after this answer render the new content.
    revalidateTag(tag, { expire: 0 });
  }
  // After the answer, because Next applies the tags only once the handler has returned.
  if (tags.length) after(() => refreshCachedPages(pagesOf(changes)));
  return tags;
}

/**
 * The embedded lake's refresh, the one path of every commit that changed published documents, whatever
 * made it: the Studio's or a script's request, the scheduler publishing a release, a hand edit of the
 * file. The tags expire before this returns, inside the commit, so the request that committed answers
 * after its pages changed; then the caching proxy in front takes the changed pages.
 */
export function expireContent(changes: readonly ChangedDocument[]): ContentTag[] {
  const tags = tagsOf(changes);
  if (tags.length === 0) return tags;
  expireAndRefresh(tags, pagesOf(changes), 'a publish');
  return tags;
}
