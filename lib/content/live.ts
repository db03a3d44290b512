import 'server-only';

import { defineLive } from 'next-sanity/live';

import { sanityBrowserToken, sanityReadToken } from '@/lib/env/server';

import { createSanityClient } from './client';

const client = createSanityClient();

/**
 * Sanity Live for the hosted source: `sanityFetch` tags every fetch with the
 * documents' sync tags and `SanityLive` revalidates them as content changes.
 * Null on the embedded default, which has no live API.
 */
export const live = client
  ? defineLive({
      client,
      serverToken: sanityReadToken() ?? false,
      browserToken: sanityBrowserToken() ?? false,
    })
  : null;
