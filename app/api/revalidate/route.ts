import { revalidateTag } from 'next/cache';
import { after } from 'next/server';

import { refreshCachedPages } from '@/lib/cache-refresh';
import { tagsForDocumentType } from '@/lib/content/tags';
import { verifyWebhook } from '@/lib/content/webhook';
import { sanityConfig } from '@/lib/env/public';
import { revalidateSecret } from '@/lib/env/server';

/** Hosted Sanity's CDN needs a moment to serve the new revision; the embedded file is current at once. */
const CONTENT_LAKE_SETTLE_MS = 3000;

/** Sanity's publish webhook (projection {_type, _id}): refreshes the pages that show the changed document. */
export async function POST(request: Request) {
  const result = await verifyWebhook(request, revalidateSecret());
  if (!result.ok) {
    if (result.status === 401) console.error(`POST /api/revalidate refused: ${result.message}`);
    return Response.json({ message: result.message }, { status: result.status });
  }

  if (sanityConfig()) await new Promise((resolve) => setTimeout(resolve, CONTENT_LAKE_SETTLE_MS));
  const tags = tagsForDocumentType(result.type);
  for (const tag of tags) {
    // { expire: 0 } rather than 'max': stale-while-revalidate would serve the old text to the next
    // visitor; expiring now makes the first load after this answer render the new content.
    revalidateTag(tag, { expire: 0 });
  }
  // A caching proxy that revalidateTag does not reach (deploy/'s nginx) takes the new pages: after the
  // answer, because Next applies the tags only once this handler has returned.
  if (tags.length) after(refreshCachedPages);
  return Response.json({ revalidated: tags, now: Date.now() });
}
