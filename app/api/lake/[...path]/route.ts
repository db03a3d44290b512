import { localLake } from '@/lib/content/local-lake';
import { sanityConfig } from '@/lib/env/public';
import { callerOf } from '@/lib/http/trust-proxy';

/**
 * The embedded default's Content Lake (lib/content/local-lake.ts), at Sanity's paths under /api/lake: the
 * Studio at /studio and the previews of draft mode use it. A publish here refreshes the pages that show
 * the published document at once, as the publish webhook does for a hosted project. With a Sanity
 * project configured there is no local lake: the Studio and the site talk to Sanity.
 */

async function serve(request: Request): Promise<Response> {
  if (sanityConfig())
    return Response.json({ message: 'This site edits a Sanity project: there is no local Content Lake' }, { status: 404 });
  const { handle } = await localLake();
  return handle(request, callerOf(request));
}

export { serve as GET, serve as POST, serve as PUT, serve as PATCH, serve as DELETE, serve as OPTIONS, serve as HEAD };
