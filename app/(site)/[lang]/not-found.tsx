import { notFoundMetadata } from '@/lib/content/metadata';

import { LanguageNotFound } from '../_components/status-copy';

export const generateMetadata = () => notFoundMetadata();

/**
 * A page's notFound() (a day no version of the privacy policy names), and a made-up path under a
 * language's prefix: the 404 page's words in the page's language, in the site's frame.
 */
export default function NotFound() {
  return <LanguageNotFound />;
}
