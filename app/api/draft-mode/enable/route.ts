import { defineEnableDraftMode } from 'next-sanity/draft-mode';
import type { NextRequest } from 'next/server';

import { createSanityClient, readToken } from '@/lib/content/client';

/**
 * Opened by the Presentation tool with a short-lived secret that the Studio wrote into the dataset;
 * without a matching secret document it answers 401.
 */
export async function GET(request: NextRequest) {
  const token = readToken();
  if (!token) return new Response('Draft mode needs SANITY_API_READ_TOKEN on the server', { status: 401 });
  return defineEnableDraftMode({ client: createSanityClient().withConfig({ token }) }).GET(request);
}
