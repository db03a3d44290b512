import type { MetadataRoute } from 'next';

import { siteUrl } from '@/lib/env/public';
import { PUBLIC_PATHS } from '@/lib/shared/public-pages';

export default function sitemap(): MetadataRoute.Sitemap {
  return PUBLIC_PATHS.map((path) => ({ url: `${siteUrl()}${path}`, changeFrequency: 'monthly' }));
}
