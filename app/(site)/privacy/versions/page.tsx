import { getPolicyVersions, getSettings } from '@/lib/content';
import { pageMetadata } from '@/lib/content/metadata';
import { ROUTES } from '@/lib/shared/public-pages';

import { VersionList } from '../../_components/version-list';

export function generateMetadata() {
  return pageMetadata(ROUTES.versions);
}

export default async function VersionsPage() {
  const [view, settings] = await Promise.all([getPolicyVersions(), getSettings()]);
  return <VersionList view={view} backHome={settings.chrome.backHome} />;
}
