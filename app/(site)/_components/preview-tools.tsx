'use client';

import type { ClientPerspective } from '@sanity/client';
import { useRouter } from 'next/navigation';
import { SanityLive } from 'next-sanity/live/client-components';
import { VisualEditing } from 'next-sanity/visual-editing/client-component';
import { perspectiveChangeAction, variantChangeAction } from 'next-sanity/visual-editing/server-actions';
import { useEffect, useRef, useState, useTransition, type ComponentProps } from 'react';

import { OVERLAYS_DEADLINE_MARK } from './preview-marks';

type Props = {
  live: ComponentProps<typeof SanityLive>['config'];
  /** What the page was rendered with: the perspective (a release stack joined by commas) and the variant. */
  perspective: string;
  variant: string | undefined;
};

// next-sanity's defaults for the rest: errors and reconnections logged, a restart refreshes the page.
const LIVE_DEFAULTS = { waitFor: undefined, onError: undefined, onReconnect: undefined, onRestart: undefined, onGoAway: undefined };

/**
 * The overlays' latest start, counted from the preview's navigation, not from hydration, which on a busy
 * machine comes late itself. Presentation warns when they have not connected 8 s after the frame loaded
 * (1–2 s after navigation here), and they take about 1.5 s to connect here: this leaves room for a machine
 * twice as slow. The live connection's first refresh comes 3–5 s after navigation here.
 */
const OVERLAYS_AT_LATEST_MS = 5000;

/**
 * The browser's side of a draft preview, so that its first load is final:
 * - Presentation names its perspective and variant as soon as it connects. next-sanity's actions for
 *   them write a cookie and render the whole page again on every call in a production build, even when
 *   nothing changed: the preview loaded a second time, and an edit typed meanwhile waited behind it.
 *   Only a change from what the page shows reaches the server here.
 * - Sanity Live renders the page once more, in place, when its connection opens (and after each
 *   reconnection): an edit made between the server's render and that moment would otherwise wait for the
 *   next one, and an editor types as soon as Presentation shows the page.
 * - The click-to-edit overlays start after that render: their first scan of the page's texts holds the
 *   main thread (which the preview shares with the Studio) for most of a second, and started first it
 *   held the live connection's refresh, and with it an edit typed as the preview opened, behind it.
 *   If the connection has not opened OVERLAYS_AT_LATEST_MS after the preview's navigation, they start anyway.
 */
export function PreviewTools({ live, perspective, variant }: Props) {
  const router = useRouter();
  const shown = useRef({ perspective, variant });
  const [refreshing, startRefresh] = useTransition();
  const [overlaysDue, setOverlaysDue] = useState(false);
  const [overlays, setOverlays] = useState(false);
  // Once started they stay: a later connection's refresh does not take them down.
  if (overlaysDue && !refreshing && !overlays) setOverlays(true);
  useEffect(() => {
    if (overlays) return;
    const latest = setTimeout(
      () => {
        performance.mark(OVERLAYS_DEADLINE_MARK);
        setOverlaysDue(true);
      },
      Math.max(0, OVERLAYS_AT_LATEST_MS - performance.now()),
    );
    return () => clearTimeout(latest);
  }, [overlays]);
  const onWelcome = () =>
    startRefresh(() => {
      setOverlaysDue(true);
      router.refresh();
    });
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
      <SanityLive {...LIVE_DEFAULTS} config={live} includeDrafts action="refresh" requestTag="next-loader.live" onWelcome={onWelcome} />
      {overlays ? <VisualEditing onPerspectiveChange={onPerspectiveChange} onVariantChange={onVariantChange} /> : null}
    </>
  );
}
