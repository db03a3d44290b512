import { LinkPage, linkPageMetadata } from '../../../_components/link-page';
import { pageLanguage, type LanguageParams } from '../../../_components/page-language';

export const generateMetadata = (props: LanguageParams) => linkPageMetadata('unsubscribe', props);

/**
 * Rendered whole for each request, the token in it (nothing is kept per token), and sent whole: a page
 * streamed in parts needs JavaScript to show its late part, and this one must work without.
 */
export const instant = false;

/** Every email's unsubscribe link: a button unsubscribes the address; mail clients post to ./one-click instead. */
export default async function UnsubscribePage({ searchParams, params }: PageProps<'/[lang]/subscription/unsubscribe'>) {
  return <LinkPage kind="unsubscribe" searchParams={searchParams} language={(await pageLanguage({ params })).tag} />;
}
