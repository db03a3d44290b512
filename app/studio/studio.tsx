'use client';

import dynamic from 'next/dynamic';

/**
 * The Studio is a browser application: it renders only there. Loaded on the server, `sanity` would come
 * from node_modules with its own copy of React (next.config.ts keeps it out of the server bundle for the
 * webhook's validation engine), and prerendering /studio would fail with a null hooks dispatcher.
 */
export const Studio = dynamic(
  async () => {
    const [{ NextStudio }, { default: config }] = await Promise.all([import('next-sanity/studio'), import('@/studio/sanity.config')]);
    return function EmbeddedStudio() {
      return <NextStudio config={config} />;
    };
  },
  { ssr: false },
);
