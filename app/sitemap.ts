import type { MetadataRoute } from 'next';

import { getSiteLanguages } from '@/lib/content';
import { pageAlternates } from '@/lib/content/metadata';
import { siteUrl } from '@/lib/env/public';
import { localePath } from '@/lib/shared/languages';
import { PUBLIC_PATHS } from '@/lib/shared/public-pages';

/** Every public page in every language, each with its alternates in the others (hreflang). */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const site = await getSiteLanguages();
  const url = (path: string) => `${siteUrl()}${path}`;
  const entries = await Promise.all(
    PUBLIC_PATHS.map(async (path) => {
      const languages = Object.fromEntries(Object.entries(await pageAlternates(path)).map(([tag, href]) => [tag, url(href)]));
      return site.languages.map(({ tag }) => ({
        url: url(localePath(path, tag, site)),
        changeFrequency: 'monthly' as const,
        alternates: { languages },
      }));
    }),
  );
  return entries.flat();
}
