import { getPrivacyPolicy, getSettings } from '@/lib/content';
import { pageMetadata } from '@/lib/content/metadata';
import { ROUTES } from '@/lib/public-pages';

import { BackHome } from '../_components/back-home';
import { PortableText } from '../_components/portable-text';

export function generateMetadata() {
  return pageMetadata(ROUTES.privacy);
}

export default async function PrivacyPage() {
  const [{ title, lastUpdated, sections }, settings] = await Promise.all([getPrivacyPolicy(), getSettings()]);

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome label={settings.chrome.backHome} />
      <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">{title}</h1>
      {lastUpdated ? (
        <p className="mt-3 text-sm text-muted">
          {lastUpdated.label} <time dateTime={lastUpdated.dateTime}>{lastUpdated.text}</time>
        </p>
      ) : null}
      <ol className="mt-10 space-y-10">
        {sections.map((section, index) => (
          <li key={section._key}>
            <section aria-labelledby={`privacy-${index + 1}`}>
              <h2 id={`privacy-${index + 1}`} className="text-2xl font-bold text-ink">
                {index + 1}. {section.heading}
              </h2>
              <PortableText value={section.body} />
            </section>
          </li>
        ))}
      </ol>
    </article>
  );
}
