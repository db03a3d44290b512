import type { MetadataRoute } from 'next';

import { siteUrl } from '@/lib/env/public';

export default function sitemap(): MetadataRoute.Sitemap {
  return ['/', '/support', '/privacy'].map((path) => ({ url: `${siteUrl()}${path}`, changeFrequency: 'monthly' }));
}
