import { LinkPage, linkPageMetadata } from '../../../_components/link-page';
import { pageLanguage, type LanguageParams } from '../../../_components/page-language';

export const generateMetadata = (props: LanguageParams) => linkPageMetadata('confirm', props);

/**
 * Rendered whole for each request, the token in it (nothing is kept per token), and sent whole: a page
 * streamed in parts needs JavaScript to show its late part, and this one must work without.
 */
export const instant = false;

/** The confirmation email's link: a button confirms the address (supabase/migrations/*_double_opt_in.sql). */
export default async function ConfirmPage({ searchParams, params }: PageProps<'/[lang]/subscription/confirm'>) {
  return <LinkPage kind="confirm" searchParams={searchParams} language={(await pageLanguage({ params })).tag} />;
}
