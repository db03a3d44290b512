import './globals.css';

import type { Metadata } from 'next';

import { ROUTES } from '@/lib/public-pages';
import { HomeLink, secondaryAction, StatusPage } from './_components/status-page';

export const metadata: Metadata = {
  title: 'Page not found',
  description: 'The page you are looking for does not exist.',
  robots: { index: false },
};

export default function GlobalNotFound() {
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-gray-50 text-ink antialiased">
        <main className="flex flex-1">
          <StatusPage label="404" heading="Page not found" text="This page does not exist. It may have moved, or the address may be mistyped.">
            <HomeLink />
            <a href={ROUTES.support} className={secondaryAction}>
              Get support
            </a>
          </StatusPage>
        </main>
      </body>
    </html>
  );
}
