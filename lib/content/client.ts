import 'server-only';

import { createClient, type SanityClient } from 'next-sanity';

import { LOCAL_TOKEN } from '@school-site/content-lake';
import { sanityClientOptions, sanityConfig } from '@/lib/env/public';
import { sanityReadToken } from '@/lib/env/server';

import { localClient } from './local-client';

/** The site's Sanity client: the hosted project's, or on the embedded default the local lake's (local-client.ts). */
export function createSanityClient(): SanityClient {
  const config = sanityConfig();
  if (!config) return localClient();
  return createClient({
    ...sanityClientOptions(config),
    useCdn: true,
    perspective: 'published',
    // Click-to-edit overlays in draft mode point back into the embedded Studio.
    stega: { studioUrl: '/studio' },
  });
}

/** The token that reads drafts: the project's Viewer token, or on the embedded default one the local lake ignores. */
export function readToken(): string | undefined {
  return sanityConfig() ? sanityReadToken() : LOCAL_TOKEN;
}
