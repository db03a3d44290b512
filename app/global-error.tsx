'use client';

import './globals.css';

import { useEffect } from 'react';

import { ERROR_DEFAULTS } from '@/lib/content/status-copy';

import { ErrorBody } from './_components/status-page';

/**
 * The root layout itself failed: this replaces the whole document, so it brings its own html and styles,
 * and its words are the defaults in code (what failed may be the very read of Site settings).
 */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-gray-50 text-ink antialiased">
        <title>{ERROR_DEFAULTS.heading}</title>
        <main className="flex flex-1">
          <ErrorBody copy={ERROR_DEFAULTS} retry={retry} />
        </main>
      </body>
    </html>
  );
}
