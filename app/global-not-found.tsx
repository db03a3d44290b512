import './globals.css';

import { getNotFoundCopy } from '@/lib/content';
import { notFoundMetadata } from '@/lib/content/metadata';

import { NotFoundBody } from './_components/status-page';

export const generateMetadata = () => notFoundMetadata();

export default async function GlobalNotFound() {
  const copy = await getNotFoundCopy();
  return (
    <html lang={copy.writtenIn.lang} dir={copy.writtenIn.dir}>
      <body className="flex min-h-screen flex-col bg-gray-50 text-ink antialiased">
        <main className="flex flex-1">
          <NotFoundBody copy={copy} />
        </main>
      </body>
    </html>
  );
}
