import 'server-only';

import { defineLive } from 'next-sanity/live';

import { sanityBrowserToken, sanityReadToken } from '@/lib/env/server';

import { createSanityClient } from './client';

const client = createSanityClient();
const serverToken = sanityReadToken();

/**
 * Sanity Live for the hosted source (next-sanity 13, strict: every fetch names its perspective and stega).
 * `sanityFetch` runs inside the site's one 'use cache' boundary (fetch.ts); `SanityLive` runs in draft
 * mode only (draft-tools.tsx). The browser gets a token only in draft mode, which the secret flow of
 * /api/draft-mode/enable guards: SANITY_API_BROWSER_TOKEN, else the server's Viewer token, as Sanity's
 * template does. Null on the embedded default, which has no live API.
 */
export const live = client
  ? defineLive({
      client,
      serverToken: serverToken ?? false,
      browserToken: sanityBrowserToken() ?? serverToken ?? false,
      strict: true,
    })
  : null;
