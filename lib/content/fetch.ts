import 'server-only';

import type { SanityQueries } from '@sanity/client';
import { resolvePerspectiveFromCookies, type LivePerspective } from 'next-sanity/live';
import { cacheLife, cacheTag } from 'next/cache';
import { cookies, draftMode } from 'next/headers';

import { createLastGood } from './last-good';
import { contentClient, live } from './live';
import { fetchTags } from '@/lib/shared/public-pages';
import type { ContentType } from '@/lib/shared/content-types';

export type QueryResult<Q extends keyof SanityQueries> = SanityQueries[Q];

/**
 * What a fetch reads: published content for visitors; in draft mode what Presentation previews, with
 * click-to-edit markers. `record`: a read of the policy's record, outside Live (below).
 */
type FetchOptions = { perspective: LivePerspective; stega: boolean; record?: true };

const PUBLISHED: FetchOptions = { perspective: 'published', stega: false };
const RECORD: FetchOptions = { ...PUBLISHED, record: true };

// Why this is the only layer that keeps last good content: last-good.ts.
const withLastGood = createLastGood();

/** Whether this request previews (draft mode): it reads what editors edit, where visitors read what is published. */
export const isPreview = async () => (await draftMode()).isEnabled;

/**
 * The request's fetch options, read outside the cache and passed in, so they are part of its key.
 * In draft mode the perspective is the one Presentation set in its cookie: drafts, or a content
 * release stacked on drafts.
 */
async function fetchOptions(): Promise<FetchOptions> {
  if (!(await isPreview())) return PUBLISHED;
  return { perspective: (await resolvePerspectiveFromCookies({ cookies: await cookies() })) ?? 'drafts', stega: true };
}

/**
 * The single way the site reads content: Sanity Live's fetch, from the hosted project when one is
 * configured, otherwise from the local lake in this process (local-client.ts), with the same GROQ and tags.
 */
export async function fetchContent<const Q extends keyof SanityQueries>(
  query: Q,
  type: ContentType,
  params: QueryParams = {},
): Promise<Content<Q>> {
  return cachedContent(query, type, await fetchOptions(), params);
}

/**
 * A read of the policy's record of versions (policy-record.ts), or of what decides which version is in
 * effect: published, in draft mode too, since the record holds what visitors could read and never a draft.
 * Tagged as the policy (whose publish writes it) and the settings.
 */
export async function fetchRecord<const Q extends keyof SanityQueries>(query: Q, params: QueryParams = {}): Promise<Content<Q>> {
  return cachedContent(query, 'privacyPolicy', RECORD, params);
}

/**
 * A read of published content with no request to read draft mode from: what the site's routes are
 * (generateStaticParams has none), such as which languages it has.
 */
export async function fetchPublished<const Q extends keyof SanityQueries>(query: Q, type: ContentType): Promise<Content<Q>> {
  return cachedContent(query, type, PUBLISHED, {});
}

type QueryParams = Record<string, string>;

type Content<Q extends keyof SanityQueries> = NonNullable<QueryResult<Q>>;

/**
 * A query's answer, cached until the publish webhook revalidates one of its tags (no time limit). In
 * draft mode Next runs it on every request and stores nothing. The last good answer is kept in here,
 * not around the call: an error thrown out of a 'use cache' function fails the page's render (a 500)
 * even when a caller catches it.
 */
async function cachedContent<const Q extends keyof SanityQueries>(
  query: Q,
  type: ContentType,
  options: FetchOptions,
  params: QueryParams,
): Promise<Content<Q>> {
  'use cache';
  const tags = fetchTags(type);
  cacheTag(...tags);
  cacheLife('max');
  const read = () => readContent(query, type, options, params, tags);
  // A preview shows what the source says now, failure included; visitors keep the last good version, of
  // each query and its params (a version's date is only asked for once the record is known to hold it).
  const key = `${type} ${query} ${JSON.stringify(params)}`;
  return options.perspective === 'published' && !options.stega ? withLastGood(key, read) : read();
}

/** The source's answer; throws when the document is missing. */
async function readContent<const Q extends keyof SanityQueries>(
  query: Q,
  type: ContentType,
  { perspective, stega, record }: FetchOptions,
  params: QueryParams,
  tags: string[],
): Promise<Content<Q>> {
  // The record is read with the client alone: Live would tag the cache entry with one tag per version,
  // which Next caps at 128 (logging the rest as dropped), and no preview ever follows the record live. Not
  // from Sanity's CDN: the webhook refreshes the pages right after it writes a version.
  const result = record
    ? await contentClient.fetch<QueryResult<Q>>(query, params, { perspective, stega: false, useCdn: false, tag: 'record' })
    : ((await live.sanityFetch({ query, params, perspective, stega, tags })).data as QueryResult<Q>);
  if (result === null) throw new Error(`The ${type} document is missing from the dataset.`);
  return result;
}
