import 'server-only';

import { defineLive } from 'next-sanity/live';

import { LOCAL_TOKEN } from '@school-site/content-lake';
import { sanityConfig } from '@/lib/env/public';
import { sanityBrowserToken } from '@/lib/env/server';

import { createSanityClient, readToken } from './client';
import { localClient } from './local-client';

const serverToken = readToken();
const browserToken = sanityConfig() ? (sanityBrowserToken() ?? serverToken) : LOCAL_TOKEN;

/**
 * Sanity Live (next-sanity 13, strict: every fetch names its perspective and stega), for the hosted
 * project and the embedded default's local lake alike. `sanityFetch` runs inside the site's one 'use cache'
 * boundary (fetch.ts); the browser's side runs in draft mode only (draft-tools.tsx, previewLiveConfig). The browser gets a token
 * only in draft mode, which the secret flow of /api/draft-mode/enable guards: SANITY_API_BROWSER_TOKEN,
 * else the server's Viewer token, as Sanity's template does (on the embedded default, a token the lake ignores).
 */
/** The site's one Sanity client (local-client.ts on the embedded default). */
export const contentClient = createSanityClient();

export const live = defineLive({
  client: contentClient,
  serverToken: serverToken ?? false,
  browserToken: browserToken ?? false,
  strict: true,
});

/**
 * What the browser's side of Sanity Live needs in a draft preview (preview-tools.tsx): where the lake
 * answers and the browser token. On the embedded default, the local lake on the origin the preview was
 * opened from (the site may be served on any port; NEXT_PUBLIC_SITE_URL is fixed at build).
 */
export function previewLiveConfig(origin: string) {
  const client = sanityConfig() ? createSanityClient() : localClient(origin);
  const { projectId, dataset, apiHost, apiVersion, useProjectHostname, requestTagPrefix } = client.config();
  return { projectId, dataset, apiHost, apiVersion, useProjectHostname, requestTagPrefix, token: browserToken || undefined };
}
