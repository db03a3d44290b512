'use client';

import type { ClientPerspective } from '@sanity/client';
import { useRouter } from 'next/navigation';
import { SanityLive } from 'next-sanity/live/client-components';
import { VisualEditing } from 'next-sanity/visual-editing/client-component';
import { perspectiveChangeAction, variantChangeAction } from 'next-sanity/visual-editing/server-actions';
import { useRef, type ComponentProps } from 'react';

type Props = {
  live: ComponentProps<typeof SanityLive>['config'];
  /** What the page was rendered with: the perspective (a release stack joined by commas) and the variant. */
  perspective: string;
  variant: string | undefined;
};

// next-sanity's defaults for the rest: errors and reconnections logged, a restart refreshes the page.
const LIVE_DEFAULTS = { waitFor: undefined, onError: undefined, onReconnect: undefined, onRestart: undefined, onGoAway: undefined };

/**
 * The browser's side of a draft preview, so that its first load is final:
 * - Presentation names its perspective and variant as soon as it connects. next-sanity's actions for
 *   them write a cookie and render the whole page again on every call in a production build, even when
 *   nothing changed: the preview loaded a second time, and an edit typed meanwhile waited behind it.
 *   Only a change from what the page shows reaches the server here.
 * - Sanity Live renders the page once more, in place, when its connection opens (and after each
 *   reconnection): an edit made between the server's render and that moment would otherwise wait for the
 *   next one, and an editor types as soon as Presentation shows the page.
 */
export function PreviewTools({ live, perspective, variant }: Props) {
  const router = useRouter();
  const shown = useRef({ perspective, variant });
  const onPerspectiveChange = (next: ClientPerspective) => {
    const key = Array.isArray(next) ? next.join(',') : next;
    if (key === shown.current.perspective) return;
    shown.current.perspective = key;
    void perspectiveChangeAction(next);
  };
  const onVariantChange = (next: string | undefined) => {
    if (next === shown.current.variant) return;
    shown.current.variant = next;
    void variantChangeAction(next);
  };
  return (
    <>
      <SanityLive
        {...LIVE_DEFAULTS}
        config={live}
        includeDrafts
        action="refresh"
        requestTag="next-loader.live"
        onWelcome={() => router.refresh()}
      />
      <VisualEditing onPerspectiveChange={onPerspectiveChange} onVariantChange={onVariantChange} />
    </>
  );
}
