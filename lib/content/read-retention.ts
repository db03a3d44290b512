import 'server-only';

import { toRetention, type Retention } from '@/lib/shared/retention';

import { createSanityClient } from './client';
import { RETENTION_QUERY } from './queries';

/** How long a read may take before the sweep gives it up (and tries at its next round). */
const READ_TIMEOUT_MS = 10_000;

/**
 * How long support requests are kept, as the published Site settings say now (defaults where they say
 * nothing), read by the site's one client outside any request: the mail sender's sweep has none.
 * Throws when the settings cannot be read: a sweep then deletes nothing rather than guess.
 */
export async function readRetention(): Promise<Retention> {
  const result = await createSanityClient()
    .withConfig({ useCdn: false, perspective: 'published', timeout: READ_TIMEOUT_MS })
    .fetch(RETENTION_QUERY);
  return toRetention(result);
}
