import { notFound, redirect } from 'next/navigation';

import { getLocalPath, getPolicyVersion, getPolicyVersionDates } from '@/lib/content';
import { headMetadata } from '@/lib/content/metadata';
import { ROUTES, versionPath } from '@/lib/shared/public-pages';

import { BackHome } from '../../../../_components/back-home';
import { LanguageLinks } from '../../../../_components/language-links';
import { pageLanguage } from '../../../../_components/page-language';
import { LanguageNotes } from '../../../../_components/policy-notices';
import { PolicyDateLine, PolicySections, TextLink } from '../../../../_components/policy-sections';

/** Every version is prerendered; a date the record lacks renders on its first visit and is cached then. */
export async function generateStaticParams() {
  return (await getPolicyVersionDates()).map((date) => ({ date }));
}

export async function generateMetadata({ params }: PageProps<'/[lang]/privacy/versions/[date]'>) {
  const { tag } = await pageLanguage({ params });
  const { date } = await params;
  const result = await getPolicyVersion(tag, date);
  return result.kind === 'version' ? headMetadata(result.view.meta, versionPath(date), tag) : {};
}

export default async function VersionPage({ params }: PageProps<'/[lang]/privacy/versions/[date]'>) {
  const { tag } = await pageLanguage({ params });
  const { date } = await params;
  const result = await getPolicyVersion(tag, date);
  // A date is a day on which some version was in effect: the current one is /privacy.
  if (result.kind === 'current') redirect(await getLocalPath(tag, ROUTES.privacy));
  if (result.kind === 'in-effect') redirect(await getLocalPath(tag, versionPath(result.date)));
  if (result.kind === 'not-found') notFound();
  const { view } = result;

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome language={tag} />
      <aside {...view.langOf.versions} className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-ink" role="note">
        <p>{view.notice}</p>
        <p className="mt-2">
          <TextLink {...view.currentLink} />
        </p>
      </aside>
      <LanguageNotes {...view} />
      <h1 {...view.langOf.title} className="mt-6 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">
        {view.title}
      </h1>
      <PolicyDateLine {...view} />
      <PolicySections sections={view.sections} lang={view.langOf.sections} />
      <LanguageLinks path={versionPath(date)} current={tag} />
    </article>
  );
}
