import { getPolicyVersions } from '@/lib/content';
import { ROUTES } from '@/lib/shared/public-pages';

import { LanguageLinks } from '../../../_components/language-links';
import { pageHead, pageLanguage, type LanguageParams } from '../../../_components/page-language';
import { VersionList } from '../../../_components/version-list';

export const generateMetadata = pageHead(ROUTES.versions, getPolicyVersions);

export default async function VersionsPage(props: LanguageParams) {
  const { tag } = await pageLanguage(props);
  const view = await getPolicyVersions(tag);
  return (
    <>
      <VersionList view={view} language={tag} />
      <LanguageLinks path={ROUTES.versions} current={tag} />
    </>
  );
}
