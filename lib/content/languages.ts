import 'server-only';

import { cache } from 'react';

import { languageOfSegment, localizeHref, pathPrefix, toSiteLanguages, withLocalHrefs, type SiteLanguages } from '@/lib/shared/languages';
import { serveLanguages } from '@/lib/shared/language-gate';
import { defaultLanguageAttrs } from '@/lib/shared/text-language';

import { createSanityClient } from './client';
import { fetchPublished } from './fetch';
import { LANGUAGES_QUERY } from './queries';

/**
 * The site's languages (Site settings), as every page resolves its own: the default language when none
 * is listed yet, so a dataset from before languages keeps its pages. Published ones, in draft mode too:
 * a language's pages exist once it is published.
 */
export const getSiteLanguages = cache(async (): Promise<SiteLanguages> => {
  const site = toSiteLanguages(await fetchPublished(LANGUAGES_QUERY, 'siteSettings'));
  serveLanguages(site);
  return site;
});

/**
 * Reads the languages with the site's client, outside any request and cache: at the server's start and
 * after a publish of Site settings, so that a language added is served at once (proxy.ts).
 */
export async function readServedLanguages(): Promise<void> {
  const client = createSanityClient().withConfig({ useCdn: false, perspective: 'published', timeout: READ_TIMEOUT_MS });
  serveLanguages(toSiteLanguages(await client.fetch(LANGUAGES_QUERY)));
}

/** How long a read of the languages at start or after a publish may take; until it answers, pages decide. */
const READ_TIMEOUT_MS = 10_000;

/** The language of a page's route segment; null when the site has no such language. */
export const getPageLanguage = cache(async (segment: string) => languageOfSegment(segment, await getSiteLanguages()));

/** The attributes a page in `language` puts around the default language's words it shows (null on the default's own pages). */
export const getFallbackLang = cache(async (language: string) => defaultLanguageAttrs(await getSiteLanguages(), language));

/** A view in `language`: its links of the site under the language's prefix (/es/…). */
export const inLanguage = async <T>(language: string, view: T): Promise<T> =>
  withLocalHrefs(view, pathPrefix(language, await getSiteLanguages()));

/** A path of the site (ROUTES) in `language`. */
export const getLocalPath = async (language: string, path: string) => localizeHref(path, pathPrefix(language, await getSiteLanguages()));
