import './globals.css';

import type { Metadata } from 'next';

import { getNotFoundCopy } from '@/lib/content';
import { ROUTES } from '@/lib/public-pages';

import { HomeLink, secondaryAction, StatusPage } from './_components/status-page';

export async function generateMetadata(): Promise<Metadata> {
  const { title, description } = await getNotFoundCopy();
  return { title, description, robots: { index: false } };
}

export default async function GlobalNotFound() {
  const copy = await getNotFoundCopy();
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-gray-50 text-ink antialiased">
        <main className="flex flex-1">
          <StatusPage label={copy.label} heading={copy.heading} text={copy.text}>
            <HomeLink label={copy.homeLink} />
            <a href={ROUTES.support} className={secondaryAction}>
              {copy.supportLink}
            </a>
          </StatusPage>
        </main>
      </body>
    </html>
  );
}
