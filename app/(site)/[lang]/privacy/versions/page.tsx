import { getPolicyVersions, getSettings } from '@/lib/content';
import { pageMetadata } from '@/lib/content/metadata';
import { ROUTES } from '@/lib/shared/public-pages';

import { LanguageLinks } from '../../../_components/language-links';
import { pageLanguage, type LanguageParams } from '../../../_components/page-language';
import { VersionList } from '../../../_components/version-list';

export async function generateMetadata(props: LanguageParams) {
  return pageMetadata(ROUTES.versions, (await pageLanguage(props)).tag);
}

export default async function VersionsPage(props: LanguageParams) {
  const { tag } = await pageLanguage(props);
  const [view, settings] = await Promise.all([getPolicyVersions(tag), getSettings(tag)]);
  return (
    <>
      <VersionList view={view} backHome={{ label: settings.chrome.backHome, href: settings.home.href }} />
      <LanguageLinks path={ROUTES.versions} current={tag} label={settings.chrome.languageNav} />
    </>
  );
}
