import { getNotFoundCopy } from '@/lib/content';
import { notFoundMetadata } from '@/lib/content/metadata';

import { NotFoundBody } from '../../_components/status-page';

export const generateMetadata = notFoundMetadata;

/** A page's notFound(): a day that no version of the privacy policy names. The 404 page's words, in the site's frame. */
export default async function NotFound() {
  return <NotFoundBody copy={await getNotFoundCopy()} />;
}
