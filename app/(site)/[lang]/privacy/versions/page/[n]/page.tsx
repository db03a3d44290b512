import { notFound } from 'next/navigation';

import { getPolicyVersionDates, getPolicyVersionsPage } from '@/lib/content';
import { headMetadata } from '@/lib/content/metadata';
import { mayNamePage, pageCount } from '@/lib/policy/policy-archive';

import { pageLanguage } from '../../../../../_components/page-language';
import { VersionList } from '../../../../../_components/version-list';

/** The list's pages after the first. A build must prerender one: with a single page, page 2 is that one, a 404. */
export async function generateStaticParams() {
  const pages = pageCount((await getPolicyVersionDates()).length);
  return Array.from({ length: Math.max(1, pages - 1) }, (_, index) => ({ n: String(index + 2) }));
}

/** Page `n` of the list, or null: not a plain number from 2 (proxy.ts turns those away first), or past the last page. */
const listPage = async (language: string, n: string) => (mayNamePage(n) ? getPolicyVersionsPage(language, Number(n)) : null);

export async function generateMetadata({ params }: PageProps<'/[lang]/privacy/versions/page/[n]'>) {
  const { tag } = await pageLanguage({ params });
  const view = await listPage(tag, (await params).n);
  return view ? headMetadata(view.meta, view.path, tag) : {};
}

export default async function VersionsListPage({ params }: PageProps<'/[lang]/privacy/versions/page/[n]'>) {
  const { tag } = await pageLanguage({ params });
  const { n } = await params;
  const view = await listPage(tag, n);
  if (!view) notFound();
  return <VersionList view={view} language={tag} />;
}
