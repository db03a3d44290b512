import 'server-only';

import type { SanityQueries } from '@sanity/client';
import { unstable_cache } from 'next/cache';
import { draftMode } from 'next/headers';

import { contentFile } from '@/lib/env/server';

import { queryDataset, type Perspective } from './embedded';
import { live } from './live';

/** Cache tags are document types: a webhook for a type refreshes exactly the pages that show it. */
export type ContentTag = 'siteSettings' | 'landingPage' | 'supportPage' | 'privacyPolicy';

export type QueryResult<Q extends keyof SanityQueries> = SanityQueries[Q];

/**
 * The single way the site reads content. Hosted Sanity when configured,
 * otherwise the embedded dataset in content/, both with the same GROQ and tags.
 * Draft mode switches both to the drafts perspective.
 */
export async function fetchContent<const Q extends keyof SanityQueries>(
  query: Q,
  tags: ContentTag[],
): Promise<QueryResult<Q>> {
  const draft = (await draftMode()).isEnabled;
  const perspective: Perspective = draft ? 'drafts' : 'published';

  if (live) {
    const { data } = await live.sanityFetch({ query, params: {}, perspective, stega: draft, tags });
    return data as QueryResult<Q>;
  }

  // Draft mode bypasses this cache by itself; published reads stay cached until their tags are revalidated.
  return unstable_cache(
    () => queryDataset<QueryResult<Q>>(contentFile(), query, {}, perspective),
    ['content', perspective, query],
    { tags },
  )();
}
