'use client';

import { useRouter } from 'next/navigation';
import { SanityLive } from 'next-sanity/live/client-components';
import type { ComponentProps } from 'react';

/**
 * Sanity Live with drafts in a preview, which renders the page again once its connection is open (and
 * after each reconnection): an edit made between the server's render and the connection would otherwise
 * wait for the next one, and an editor types as soon as Presentation shows the page.
 */
export function PreviewLive({ config }: { config: ComponentProps<typeof SanityLive>['config'] }) {
  const router = useRouter();
  // The other handlers as next-sanity's defaults (undefined): errors and reconnections logged, a restart refreshes.
  const defaults = { waitFor: undefined, onError: undefined, onReconnect: undefined, onRestart: undefined, onGoAway: undefined };
  return (
    <SanityLive
      {...defaults}
      config={config}
      includeDrafts
      action="refresh"
      requestTag="next-loader.live"
      onWelcome={() => router.refresh()}
    />
  );
}
