'use client';

import './globals.css';

import { useEffect } from 'react';

import { ErrorBody } from './_components/status-page';

/** The root layout itself failed: this replaces the whole document, so it brings its own html and styles. */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-gray-50 text-ink antialiased">
        <title>Something went wrong</title>
        <main className="flex flex-1">
          <ErrorBody retry={retry} />
        </main>
      </body>
    </html>
  );
}
