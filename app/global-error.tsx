'use client';

import { useEffect } from 'react';

import { ERROR_DEFAULTS } from '@/lib/content/status-copy';

import { ErrorBody } from './_components/status-page';

/** Readable without the site's stylesheet: the system font, the text centered in a narrow column. */
const FALLBACK_STYLE = {
  fontFamily: 'system-ui, sans-serif',
  lineHeight: 1.5,
  maxWidth: '32rem',
  margin: '5rem auto',
  textAlign: 'center',
} as const;

/**
 * The root layout itself failed: this replaces the whole document, and its words are the defaults in code
 * (what failed may be the very read of Site settings).
 *
 * It imports no stylesheet: Next puts the error page's stylesheets into every page's RSC payload, and the
 * site's whole stylesheet there was a third copy of it in each page (vercel/next.js#98110). Rendered in
 * the browser, it keeps the site's stylesheet, which stays in the document; rendered by the server, it
 * has FALLBACK_STYLE, as Next's own error page has its inline styles.
 */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-gray-50 text-ink antialiased">
        <title>{ERROR_DEFAULTS.heading}</title>
        <main className="flex flex-1" style={FALLBACK_STYLE}>
          <ErrorBody copy={ERROR_DEFAULTS} retry={retry} />
        </main>
      </body>
    </html>
  );
}
