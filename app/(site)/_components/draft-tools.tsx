import { draftMode, headers } from 'next/headers';
import { VisualEditing } from 'next-sanity/visual-editing';

import { previewLiveConfig } from '@/lib/content/live';

import { changePreviewPerspective } from './preview-perspective';
import { PreviewLive } from './preview-live';

/**
 * Draft mode only: a banner, click-to-edit overlays, and Sanity Live with drafts, so the preview follows
 * every edit (it refreshes the page; nothing is cached in draft mode). Visitors get none of it: their
 * pages change when a publish refreshes them, on their next load (docs/editing-content.md, "Live and draft preview").
 */
export async function DraftTools() {
  if (!(await draftMode()).isEnabled) return null;
  const request = await headers();
  const origin = `${request.get('x-forwarded-proto') ?? 'http'}://${request.get('host')}`;
  return (
    <>
      <PreviewLive config={previewLiveConfig(origin)} />
      <div role="status" className="fixed bottom-4 left-4 z-50 rounded-full bg-ink px-4 py-2 text-sm text-white shadow-lg">
        Draft preview ·{' '}
        <a href="/api/draft-mode/disable" className="font-semibold underline">
          Exit
        </a>
      </div>
      {/* A server action, as next-sanity's own default is: its promise is React's to run, not a handler's result. */}
      {/* eslint-disable-next-line @typescript-eslint/no-misused-promises */}
      <VisualEditing onPerspectiveChange={changePreviewPerspective} />
    </>
  );
}
