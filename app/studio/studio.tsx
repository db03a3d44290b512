'use client';

import dynamic from 'next/dynamic';
import { useEffect, useState } from 'react';

import { lakeApiHost } from '@school-site/content-lake/browser';
import { answerSanityServices } from '@/studio/sanity-services';

import { EditingOff } from './editing-off';

/**
 * The Studio is a browser application: it renders only there. Loaded on the server, `sanity` would come
 * from node_modules with its own copy of React (next.config.ts keeps it out of the server bundle for the
 * webhook's validation engine), and prerendering /studio would fail with a null hooks dispatcher. With a
 * project it loads with Sanity's bridge script (for Sanity's dashboard); on the local lake without, and
 * its page answers the Studio's own calls to Sanity (studio/sanity-services.ts): there it asks only the site.
 */
const HostedStudio = dynamic(
  async () => {
    const [{ NextStudio }, { default: config }] = await Promise.all([import('next-sanity/studio'), import('@/studio/sanity.config')]);
    return function EmbeddedStudio() {
      return <NextStudio config={config} />;
    };
  },
  { ssr: false },
);

const LocalStudio = dynamic(
  async () => {
    const [{ NextStudio }, { default: config }, { SANITY_VERSION }] = await Promise.all([
      import('next-sanity/studio/client-component'),
      import('@/studio/sanity.config'),
      import('sanity'),
    ]);
    // Before the Studio renders: its version check runs as it mounts.
    answerSanityServices(window, SANITY_VERSION);
    return function EmbeddedStudio() {
      return <NextStudio config={config} />;
    };
  },
  { ssr: false },
);

/**
 * The Studio warns of "brakes on" when its API speaks HTTP/1.1, for fear of the browser's six connections
 * per host. The local lake gives every stream a host name of its own (packages/content-lake/src/access.ts), so the
 * warning does not apply: it is snoozed as its own "Don't show again" button would.
 */
const snoozeProtocolWarning = () => sessionStorage.setItem('sanity-studio.network.check.snooze', new Date().toISOString());

type Access = 'checking' | 'open' | { refused: string };

/** Asks the local lake whether it answers this browser; its refusal says why (packages/content-lake/src/access.ts). */
async function localAccess(): Promise<Access> {
  try {
    const response = await fetch(`${lakeApiHost(window.location.origin)}/v1/ping`, { credentials: 'same-origin' });
    if (response.ok) {
      snoozeProtocolWarning();
      return 'open';
    }
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    return { refused: body.message ?? `The local Content Lake answered ${response.status}.` };
  } catch {
    return { refused: 'The local Content Lake did not answer.' };
  }
}

export function Studio({ local }: { local: boolean }) {
  const [access, setAccess] = useState<Access>(local ? 'checking' : 'open');
  useEffect(() => {
    if (local) void localAccess().then(setAccess);
  }, [local]);
  if (!local) return <HostedStudio />;
  if (access === 'checking') return null;
  if (access !== 'open') return <EditingOff reason={access.refused} />;
  return <LocalStudio />;
}
