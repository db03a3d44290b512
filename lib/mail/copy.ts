import 'server-only';

import { createSanityClient } from '@/lib/content/client';
import { SUBSCRIPTION_COPY_QUERY } from '@/lib/content/queries';
import { toSubscriptionCopy } from '@/lib/forms/subscription-copy';

import { cachedMailCopy, forgetMailCopy, keepMailCopy, type MailCopy } from '@/lib/content/mail-copy-cache';

/**
 * How long the senders keep the emails' words. A publish of Site settings in this process drops them at
 * once (copy-cache.ts); another instance's senders take the publish within this.
 */
export const COPY_TTL_MS = 60_000;

let client: ReturnType<typeof createSanityClient> | undefined;

async function readCopy(): Promise<MailCopy> {
  // The site's Sanity client (the hosted project, or the local lake in this process), outside any request:
  // published words, without Live or draft mode, which only a request has.
  // The default language's words: the emails are written in it.
  const result = await (client ??= createSanityClient()).fetch(
    SUBSCRIPTION_COPY_QUERY,
    { language: '' },
    { perspective: 'published', stega: false },
  );
  if (!result?.subscription) throw new Error('Site settings have no Subscription texts: the emails cannot be written');
  return { productName: result.productName ?? '', words: toSubscriptionCopy(result) };
}

/** The emails' words, read at most once a COPY_TTL_MS; a failed read is tried again at the next call. */
export function mailCopy(now = Date.now()): Promise<MailCopy> {
  const cached = cachedMailCopy();
  if (cached && now < cached.until) return cached.copy;
  const copy = readCopy();
  keepMailCopy({ until: now + COPY_TTL_MS, copy });
  copy.catch(() => {
    if (cachedMailCopy()?.copy === copy) forgetMailCopy();
  });
  return copy;
}
