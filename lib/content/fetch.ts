import 'server-only';

import type { SanityQueries } from '@sanity/client';
import { resolvePerspectiveFromCookies, type LivePerspective } from 'next-sanity/live';
import { cacheLife, cacheTag } from 'next/cache';
import { cookies, draftMode } from 'next/headers';

import { contentFile } from '@/lib/env/server';

import { documentProblems, queryDataset } from './embedded';
import { createLastGood } from './last-good';
import { live } from './live';
import { FETCH_TAGS } from './tags';
import type { ContentType } from './types';

export type QueryResult<Q extends keyof SanityQueries> = SanityQueries[Q];

/** What a fetch reads: published content for visitors; in draft mode what Presentation previews, with click-to-edit markers. */
type FetchOptions = { perspective: LivePerspective; stega: boolean };

const PUBLISHED: FetchOptions = { perspective: 'published', stega: false };

// Why this is the only layer that keeps last good content: last-good.ts.
const withLastGood = createLastGood();

/**
 * The request's fetch options, read outside the cache and passed in, so they are part of its key.
 * In draft mode the perspective is the one Presentation set in its cookie: drafts, or a content
 * release stacked on drafts. The embedded dataset has drafts only.
 */
async function fetchOptions(): Promise<FetchOptions> {
  if (!(await draftMode()).isEnabled) return PUBLISHED;
  if (!live) return { perspective: 'drafts', stega: false };
  return { perspective: (await resolvePerspectiveFromCookies({ cookies: await cookies() })) ?? 'drafts', stega: true };
}

/**
 * The single way the site reads content. Hosted Sanity when configured, otherwise the embedded dataset
 * in content/, both with the same GROQ and tags.
 */
export async function fetchContent<const Q extends keyof SanityQueries>(query: Q, type: ContentType): Promise<NonNullable<QueryResult<Q>>> {
  const options = await fetchOptions();
  const load = async () => {
    const result = await cachedContent(query, type, options);
    if (result === null) throw new Error(`The ${type} document is missing from the dataset.`);
    return result as NonNullable<QueryResult<Q>>;
  };
  // A preview shows what the source says now, failure included; visitors keep the last good version.
  if (options !== PUBLISHED) return load();
  // Outside the cache: a failing source falls back to the last good answer instead of caching the failure.
  return withLastGood(type, load);
}

/**
 * A query's answer, cached until the publish webhook revalidates one of its tags (no time limit). In
 * draft mode Next runs it on every request and stores nothing.
 */
async function cachedContent<const Q extends keyof SanityQueries>(
  query: Q,
  type: ContentType,
  { perspective, stega }: FetchOptions,
): Promise<QueryResult<Q>> {
  'use cache';
  const tags = [...FETCH_TAGS[type]];
  cacheTag(...tags);
  cacheLife('max');
  if (live) {
    const { data } = await live.sanityFetch({ query, params: {}, perspective, stega, tags });
    return data as QueryResult<Q>;
  }
  const file = contentFile();
  if (perspective !== 'published') return queryDataset<QueryResult<Q>>(file, query, {}, 'drafts');
  const problems = await documentProblems(file, type);
  if (problems.length > 0) throw new Error(`${file}: the ${type} document cannot be rendered:\n  ${problems.join('\n  ')}`);
  return queryDataset<QueryResult<Q>>(file, query, {}, 'published');
}
