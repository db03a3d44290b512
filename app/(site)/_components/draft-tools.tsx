import { cookies, draftMode, headers } from 'next/headers';
import { resolvePerspectiveFromCookies, resolveVariantFromCookies } from 'next-sanity/live';

import { previewLiveConfig } from '@/lib/content/live';

import { PreviewTools } from './preview-tools';

/**
 * Draft mode only: a banner, click-to-edit overlays, and Sanity Live with drafts, so the preview follows
 * every edit (it refreshes the page; nothing is cached in draft mode). Visitors get none of it: their
 * pages change when a publish refreshes them, on their next load (docs/editing-content.md, "Live and draft preview").
 */
export async function DraftTools() {
  if (!(await draftMode()).isEnabled) return null;
  const [request, jar] = await Promise.all([headers(), cookies()]);
  // The local lake answers on the origin this preview was opened from (the site may run on any port).
  const origin = `${request.get('x-forwarded-proto') ?? 'http'}://${request.get('host')}`;
  const perspective = await resolvePerspectiveFromCookies({ cookies: jar });
  return (
    <>
      <div role="status" className="fixed bottom-4 inset-s-4 z-50 rounded-full bg-ink px-4 py-2 text-sm text-white shadow-lg">
        Draft preview · {/* A route handler, not a page: the rule takes every path for one since the pages are under [lang]. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/api/draft-mode/disable" className="font-semibold underline">
          Exit
        </a>
      </div>
      <PreviewTools
        live={previewLiveConfig(origin)}
        perspective={Array.isArray(perspective) ? perspective.join(',') : perspective}
        variant={await resolveVariantFromCookies({ cookies: jar })}
      />
    </>
  );
}
