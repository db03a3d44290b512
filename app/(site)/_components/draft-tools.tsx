import { draftMode, headers } from 'next/headers';
import { VisualEditing } from 'next-sanity/visual-editing';

import { live, localLive } from '@/lib/content/live';
import { sanityConfig } from '@/lib/env/public';

/** Sanity Live with drafts: the hosted project's, or the local lake's on the origin this preview was opened from. */
async function PreviewLive() {
  if (sanityConfig()) return <live.SanityLive includeDrafts />;
  const request = await headers();
  const { SanityLive } = localLive(`${request.get('x-forwarded-proto') ?? 'http'}://${request.get('host')}`);
  return <SanityLive includeDrafts />;
}

/**
 * Draft mode only: a banner, click-to-edit overlays, and Sanity Live with drafts, so the preview follows
 * every edit (it refreshes the page; nothing is cached in draft mode). Visitors get none of it: their
 * pages change when a publish refreshes them, on their next load (docs/editing-content.md, "Live and draft preview").
 */
export async function DraftTools() {
  if (!(await draftMode()).isEnabled) return null;
  return (
    <>
      <PreviewLive />
      <div role="status" className="fixed bottom-4 left-4 z-50 rounded-full bg-ink px-4 py-2 text-sm text-white shadow-lg">
        Draft preview ·{' '}
        <a href="/api/draft-mode/disable" className="font-semibold underline">
          Exit
        </a>
      </div>
      <VisualEditing />
    </>
  );
}
