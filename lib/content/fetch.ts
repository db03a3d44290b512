import 'server-only';

import type { SanityQueries } from '@sanity/client';
import { cacheLife, cacheTag } from 'next/cache';
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
  // A request-time value: read here and passed in, so it is part of the cached function's key.
  const draft = (await draftMode()).isEnabled;
  const perspective: Perspective = draft ? 'drafts' : 'published';
  // Outside the cache: a failing source falls back to the last good answer instead of caching the failure.
  return withLastGood(`${perspective}:${type}`, () => cachedContent(query, type, draft));
}

/**
 * A query's answer, cached until the publish webhook revalidates one of its tags (no time limit). In
 * draft mode Next runs it on every request and stores nothing.
 */
async function cachedContent<const Q extends keyof SanityQueries>(query: Q, type: ContentType, draft: boolean): Promise<QueryResult<Q>> {
  'use cache';
  const tags = [...FETCH_TAGS[type]];
  cacheTag(...tags);
  cacheLife('max');
  const perspective: Perspective = draft ? 'drafts' : 'published';
  if (live) {
    const { data } = await live.sanityFetch({ query, params: {}, perspective, stega: draft, tags });
    return data as QueryResult<Q>;
  }
  return queryDataset<QueryResult<Q>>(contentFile(), query, {}, perspective);
}
