import { useEffect, useState } from 'react';
import { useClient } from 'sanity';

import { SANITY_API_VERSION } from '@/lib/env/public';
import { toSiteLanguages, type SiteLanguages } from '@/lib/shared/languages';

const QUERY = `*[_id == "siteSettings"][0]{ languages[]{ tag, name }, defaultLanguage, governingLanguage }`;

/**
 * The site's languages as Site settings list them (published): the choices of the language filter, and
 * the names requests and subscribers are shown in. None until read, or if they cannot be: each language
 * is then named by Intl (parts.tsx) and the filter offers none.
 */
export function useSiteLanguages(): SiteLanguages | null {
  const client = useClient({ apiVersion: SANITY_API_VERSION });
  const [languages, setLanguages] = useState<SiteLanguages | null>(null);
  useEffect(() => {
    let live = true;
    client.fetch<Parameters<typeof toSiteLanguages>[0]>(QUERY, {}, { perspective: 'published' }).then(
      (settings) => live && setLanguages(toSiteLanguages(settings)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client]);
  return languages;
}
