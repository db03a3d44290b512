import { getLocalPath, getNotFoundCopy, getSettings } from '@/lib/content';
import { notFoundMetadata } from '@/lib/content/metadata';
import { ROUTES } from '@/lib/shared/public-pages';

import { NotFoundBody } from '../../../_components/status-page';
import { pageLanguage, type LanguageParams } from '../../_components/page-language';

export async function generateMetadata(props: LanguageParams) {
  return notFoundMetadata((await pageLanguage(props)).tag);
}

/**
 * The 404 page of a language, in its layout, words, lang and dir: what proxy.ts answers a made-up path
 * under the language's prefix with, as a 404 (lib/cache/not-found-page.ts). Visitors never reach it here.
 */
export default async function Missing(props: LanguageParams) {
  const { tag } = await pageLanguage(props);
  const [copy, { home, langOf }, support] = await Promise.all([getNotFoundCopy(tag), getSettings(tag), getLocalPath(tag, ROUTES.support)]);
  return <NotFoundBody copy={copy} links={{ home: home.href, support }} lang={langOf.notFound} />;
}
