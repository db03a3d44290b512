import { notFound } from 'next/navigation';

import { getPolicyChanges, getPolicyVersionDates } from '@/lib/content';
import { headMetadata } from '@/lib/content/metadata';
import { changesPath } from '@/lib/shared/public-pages';

import { BackHome } from '../../../../../_components/back-home';
import { LanguageLinks } from '../../../../../_components/language-links';
import { pageLanguage } from '../../../../../_components/page-language';
import { PolicyChanges } from '../../../../../_components/policy-changes';
import { TextLink } from '../../../../../_components/policy-sections';

/** Each version after the first, prerendered; the first has nothing before it to compare with. */
export async function generateStaticParams() {
  return (await getPolicyVersionDates()).map((date) => ({ date }));
}

export async function generateMetadata({ params }: PageProps<'/[lang]/privacy/versions/[date]/changes'>) {
  const { tag } = await pageLanguage({ params });
  const { date } = await params;
  const view = await getPolicyChanges(tag, date);
  return view ? headMetadata(view.meta, changesPath(date), tag) : {};
}

export default async function ChangesPage({ params }: PageProps<'/[lang]/privacy/versions/[date]/changes'>) {
  const { tag } = await pageLanguage({ params });
  const { date } = await params;
  const view = await getPolicyChanges(tag, date);
  if (!view) notFound();

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome language={tag} />
      <h1 {...view.langOf.words} className="mt-6 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">
        {view.heading}
      </h1>
      <p {...view.langOf.words} className="mt-4 text-muted">
        {view.intro}
      </p>
      {view.summary ? (
        <p {...view.langOf.words} className="mt-3 text-sm text-muted">
          <span className="font-semibold text-ink">{view.summary.label}</span> <span {...view.langOf.text}>{view.summary.text}</span>
        </p>
      ) : null}
      <p {...view.langOf.words} className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <TextLink {...view.versionLink} />
        <TextLink {...view.versionsLink} />
      </p>
      <PolicyChanges sections={view.sections} labels={view.labels} lang={view.langOf.text} />
      <LanguageLinks path={changesPath(date)} current={tag} />
    </article>
  );
}
