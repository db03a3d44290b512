import type { MetadataRoute } from 'next';

import { siteUrl } from '@/lib/env/public';
import { PUBLIC_PAGES } from '@/lib/public-pages';

export default function sitemap(): MetadataRoute.Sitemap {
  return PUBLIC_PAGES.map((path) => ({ url: `${siteUrl()}${path}`, changeFrequency: 'monthly' }));
}
