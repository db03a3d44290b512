import { getPrivacyPolicy } from '@/lib/content';
import { ROUTES } from '@/lib/shared/public-pages';

import { BackHome } from '../../_components/back-home';
import { LanguageLinks } from '../../_components/language-links';
import { pageHead, pageLanguage, type LanguageParams } from '../../_components/page-language';
import { LanguageNotes, UpcomingNotice } from '../../_components/policy-notices';
import { PolicyDateLine, PolicySections } from '../../_components/policy-sections';

export const generateMetadata = pageHead(ROUTES.privacy, getPrivacyPolicy);

export default async function PrivacyPage(props: LanguageParams) {
  const { tag } = await pageLanguage(props);
  const policy = await getPrivacyPolicy(tag);

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome language={tag} />
      <UpcomingNotice notice={policy.upcoming} />
      <LanguageNotes {...policy} />
      <h1 {...policy.langOf.title} className="mt-6 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">
        {policy.title}
      </h1>
      <PolicyDateLine {...policy} />
      <PolicySections sections={policy.sections} lang={policy.langOf.sections} />
      <LanguageLinks path={ROUTES.privacy} current={tag} />
    </article>
  );
}
