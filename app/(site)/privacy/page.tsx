import { getPrivacyPolicy, getSettings } from '@/lib/content';
import { pageMetadata } from '@/lib/content/metadata';
import { ROUTES } from '@/lib/shared/public-pages';

import { BackHome } from '../_components/back-home';
import { UpcomingNotice } from '../_components/policy-notices';
import { PolicyDateLine, PolicySections } from '../_components/policy-sections';

export function generateMetadata() {
  return pageMetadata(ROUTES.privacy);
}

export default async function PrivacyPage() {
  const [policy, settings] = await Promise.all([getPrivacyPolicy(), getSettings()]);

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome label={settings.chrome.backHome} />
      <UpcomingNotice notice={policy.upcoming} />
      <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">{policy.title}</h1>
      <PolicyDateLine {...policy} />
      <PolicySections sections={policy.sections} />
    </article>
  );
}
