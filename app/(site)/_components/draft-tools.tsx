import { draftMode } from 'next/headers';
import { VisualEditing } from 'next-sanity/visual-editing';

import { live } from '@/lib/content/live';

/**
 * Live updates for hosted content, and in draft mode a banner plus click-to-edit
 * overlays. Renders nothing on public visits of the embedded default, so those
 * pages ship none of this code.
 */
export async function DraftTools() {
  const draft = (await draftMode()).isEnabled;
  return (
    <>
      {live ? <live.SanityLive /> : null}
      {draft ? (
        <>
          <div role="status" className="fixed bottom-4 left-4 z-50 rounded-full bg-ink px-4 py-2 text-sm text-white shadow-lg">
            Draft preview ·{' '}
            <a href="/api/draft-mode/disable" className="font-semibold underline">
              Exit
            </a>
          </div>
          <VisualEditing />
        </>
      ) : null}
    </>
  );
}
