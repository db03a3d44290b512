import type { SanityClient } from 'next-sanity';
import { defineEnableDraftMode } from 'next-sanity/draft-mode';
import type { NextRequest } from 'next/server';

import { createSanityClient } from '@/lib/content/client';
import { embeddedSecretClient } from '@/lib/content/embedded';
import { contentFile, sanityReadToken } from '@/lib/env/server';

/**
 * Opened by the Presentation tool with a short-lived secret that the Studio
 * wrote into the dataset; without a matching secret document it answers 401.
 */
export async function GET(request: NextRequest) {
  const hosted = createSanityClient();
  const token = sanityReadToken();
  if (hosted && !token) {
    return new Response('Draft mode needs SANITY_API_READ_TOKEN on the server', { status: 401 });
  }
  // The embedded stand-in implements the three client methods the secret check calls.
  const client = hosted ? hosted.withConfig({ token }) : (embeddedSecretClient(contentFile()) as unknown as SanityClient);
  return defineEnableDraftMode({ client }).GET(request);
}
