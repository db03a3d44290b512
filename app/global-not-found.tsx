import './globals.css';

import type { Metadata } from 'next';

export const metadata: Metadata = {
  title: 'Page not found',
  description: 'The page you are looking for does not exist.',
  robots: { index: false },
};

export default function GlobalNotFound() {
  return (
    <html lang="en">
      <body className="flex min-h-screen items-center justify-center bg-gray-50 px-4 text-ink antialiased">
        <main className="max-w-md text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">404</p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page not found</h1>
          <p className="mt-4 text-muted">This page does not exist. It may have moved, or the address may be mistyped.</p>
          <nav aria-label="Helpful links" className="mt-8 flex flex-wrap justify-center gap-3">
            <a href="/" className="rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700">
              Go to the home page
            </a>
            <a href="/support" className="rounded-lg border border-gray-300 bg-white px-5 py-2.5 font-semibold hover:bg-gray-100">
              Get support
            </a>
          </nav>
        </main>
      </body>
    </html>
  );
}
