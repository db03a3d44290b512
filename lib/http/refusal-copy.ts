import 'server-only';

import { readFile } from 'node:fs/promises';

import { createClient } from '@sanity/client';

import { REFUSAL_COPY_QUERY } from '@/lib/content/queries';
import { sanityClientOptions, sanityConfig } from '@/lib/env/public';
import { contentFile } from '@/lib/env/server';
import { memoize } from '@/lib/memo';
import type { REFUSAL_COPY_QUERY_RESULT } from '@/sanity.types';

/**
 * The words of the proxy's refusal pages, from Site settings → Form messages. The proxy answers before
 * any page renders (and under a flood of crafted posts), so the copy is read at most once a minute,
 * never waits more than 2 s, and falls back to these defaults while the dataset cannot be read.
 */
export const REFUSAL_DEFAULTS = {
  crossSite: 'This form can only be sent from this website.',
  unreadable: 'Your request could not be read. Please try again.',
  tooLarge: 'Your request is too large. Please shorten it and try again.',
  backToSupport: 'Back to the support page',
} as const;

export type RefusalCopy = Record<keyof typeof REFUSAL_DEFAULTS, string>;
type Texts = Partial<Record<keyof RefusalCopy, string | null>> | null | undefined;

/**
 * The published texts. Read directly (the hosted API, or the file's published settings document) rather
 * than through lib/content, whose embedded source brings the schema engine and groq-js into the proxy.
 */
async function readTexts(): Promise<Texts> {
  const hosted = sanityConfig();
  if (hosted)
    return createClient({ ...sanityClientOptions(hosted), useCdn: true, perspective: 'published' }).fetch<REFUSAL_COPY_QUERY_RESULT>(
      REFUSAL_COPY_QUERY,
    );
  const lines = (await readFile(contentFile(), 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const settings = lines
    .map((line) => JSON.parse(line) as { _id?: string; formMessages?: Texts })
    .find((doc) => doc._id === 'siteSettings');
  return settings?.formMessages;
}

async function read(): Promise<RefusalCopy> {
  const texts = await readTexts();
  const keys = Object.keys(REFUSAL_DEFAULTS) as (keyof RefusalCopy)[];
  return Object.fromEntries(keys.map((key) => [key, texts?.[key] || REFUSAL_DEFAULTS[key]])) as RefusalCopy;
}

export const refusalCopy = memoize(read, { ttlMs: 60_000, timeoutMs: 2_000, fallback: REFUSAL_DEFAULTS });
