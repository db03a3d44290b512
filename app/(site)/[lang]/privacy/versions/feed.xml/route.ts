import { getPolicyFeed } from '@/lib/content';

import { languageParams, pageLanguage } from '../../../../_components/page-language';

/** The Atom feed of the policy's versions and announcements (lib/content/policy-feed.ts), cached and refreshed with the policy. */
export const generateStaticParams = languageParams;

export async function GET(_request: Request, { params }: RouteContext<'/[lang]/privacy/versions/feed.xml'>) {
  const { tag } = await pageLanguage({ params });
  return new Response(await getPolicyFeed(tag), { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } });
}
