import type { Metadata } from 'next';
import { stegaClean } from 'next-sanity';

import { getPrivacyPolicy } from '@/lib/content';

import { BackHome } from '../_components/back-home';
import { PortableText } from '../_components/portable-text';

export async function generateMetadata(): Promise<Metadata> {
  const seo = stegaClean((await getPrivacyPolicy()).seo);
  return { title: seo?.title, description: seo?.description, alternates: { canonical: '/privacy' } };
}

/** The editor-set date of this version, never today's: a legal text must not claim changes it did not have. */
function formatDate(isoDate: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`));
}

export default async function PrivacyPage() {
  const page = await getPrivacyPolicy();
  const lastUpdated = stegaClean(page.lastUpdated);

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome />
      <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">{page.title}</h1>
      {lastUpdated ? (
        <p className="mt-3 text-sm text-muted">
          Last updated: <time dateTime={lastUpdated}>{formatDate(lastUpdated)}</time>
        </p>
      ) : null}
      <ol className="mt-10 space-y-10">
        {page.sections?.map((section, index) => (
          <li key={section._key}>
            <section aria-labelledby={`privacy-${index + 1}`}>
              <h2 id={`privacy-${index + 1}`} className="text-2xl font-bold text-ink">
                {index + 1}. {section.heading}
              </h2>
              {section.body ? <PortableText value={section.body} /> : null}
            </section>
          </li>
        ))}
      </ol>
    </article>
  );
}
