import 'server-only';

import type { SanityQueries } from '@sanity/client';
import { unstable_cache } from 'next/cache';
import { draftMode } from 'next/headers';

import { contentFile } from '@/lib/env/server';

import { queryDataset, type Perspective } from './embedded';
import { createLastGood } from './last-good';
import { live } from './live';
import { FETCH_TAGS } from './tags';
import type { ContentType } from './types';

export type QueryResult<Q extends keyof SanityQueries> = SanityQueries[Q];

// The webhook refuses unrenderable content before it refreshes anything (publish-check.ts); this covers
// what changes between that check and a render.
const withLastGood = createLastGood();

/**
 * The single way the site reads content. Hosted Sanity when configured,
 * otherwise the embedded dataset in content/, both with the same GROQ and tags.
 * Draft mode switches both to the drafts perspective.
 */
export async function fetchContent<const Q extends keyof SanityQueries>(query: Q, type: ContentType): Promise<QueryResult<Q>> {
  const draft = (await draftMode()).isEnabled;
  const perspective: Perspective = draft ? 'drafts' : 'published';
  const tags = [...FETCH_TAGS[type]];

  return withLastGood(`${perspective}:${type}`, async () => {
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
  });
}
