import 'server-only';

import { notFound } from 'next/navigation';

import { getPageLanguage, getSiteLanguages } from '@/lib/content';
import { pageMetadata } from '@/lib/content/metadata';
import type { PublicPath } from '@/lib/shared/public-pages';
import { segmentOf } from '@/lib/shared/languages';

/** The route's props of every page and layout of the site: its language segment (the default's is DEFAULT_SEGMENT). */
export type LanguageParams = { params: Promise<{ lang: string }> };

/** The language a page is in, by its route segment; a 404 for a language the site does not have. */
export async function pageLanguage({ params }: LanguageParams) {
  const language = await getPageLanguage((await params).lang);
  if (!language) notFound();
  return language;
}

/** Every language the settings list, as the segments their pages render under: each is prerendered. */
export async function languageParams(): Promise<{ lang: string }[]> {
  const site = await getSiteLanguages();
  return site.languages.map(({ tag }) => ({ lang: segmentOf(tag, site) }));
}

/** The <head> of the public page at `path` from its view (`read`), in the page's language: each page's generateMetadata. */
export const pageHead = (path: PublicPath, read: Parameters<typeof pageMetadata>[2]) => async (props: LanguageParams) =>
  pageMetadata(path, (await pageLanguage(props)).tag, read);
