import { createClient, type SanityClient } from 'next-sanity';

import { sanityClientOptions, sanityConfig } from '@/lib/env/public';

/** The hosted Sanity client, or null when the site runs on the embedded seed dataset. */
export function createSanityClient(): SanityClient | null {
  const config = sanityConfig();
  return (
    config &&
    createClient({
      ...sanityClientOptions(config),
      useCdn: true,
      perspective: 'published',
      // Click-to-edit overlays in draft mode point back into the embedded Studio.
      stega: { studioUrl: '/studio' },
    })
  );
}
