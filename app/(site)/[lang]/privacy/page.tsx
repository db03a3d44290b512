import { getPrivacyPolicy, getSettings } from '@/lib/content';
import { pageMetadata } from '@/lib/content/metadata';
import { ROUTES } from '@/lib/shared/public-pages';

import { BackHome } from '../../_components/back-home';
import { LanguageLinks } from '../../_components/language-links';
import { pageLanguage, type LanguageParams } from '../../_components/page-language';
import { LanguageNotes, UpcomingNotice } from '../../_components/policy-notices';
import { PolicyDateLine, PolicySections } from '../../_components/policy-sections';

export async function generateMetadata(props: LanguageParams) {
  return pageMetadata(ROUTES.privacy, (await pageLanguage(props)).tag);
}

export default async function PrivacyPage(props: LanguageParams) {
  const { tag } = await pageLanguage(props);
  const [policy, settings] = await Promise.all([getPrivacyPolicy(tag), getSettings(tag)]);

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome label={settings.chrome.backHome} href={settings.home.href} />
      <UpcomingNotice notice={policy.upcoming} />
      <LanguageNotes {...policy} />
      <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">{policy.title}</h1>
      <PolicyDateLine {...policy} />
      <PolicySections sections={policy.sections} />
      <LanguageLinks path={ROUTES.privacy} current={tag} label={settings.chrome.languageNav} />
    </article>
  );
}
