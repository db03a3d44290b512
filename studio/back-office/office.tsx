import { createContext, useContext } from 'react';

import type { Me } from '@/lib/shared/back-office';
import type { Language } from '@/lib/shared/languages';

import type { OfficeApi } from './api';

/**
 * What every view of the tool shares once the server has admitted the editor: the API, whether this is a
 * Sanity project's Studio (its refusals are worded for a login, the embedded one's for this machine), who
 * the server says the editor is, and the site's languages (Site settings), to name each request's and
 * subscriber's language.
 */
export type Office = {
  api: OfficeApi;
  hosted: boolean;
  me: Me;
  languages: readonly Language[];
  /** What the store's '' means (a request or subscriber in the site's default language); null until read. */
  defaultLanguage: string | null;
};

const OfficeContext = createContext<Office | null>(null);

export const OfficeProvider = OfficeContext.Provider;

export function useOffice(): Office {
  const office = useContext(OfficeContext);
  if (!office) throw new Error('useOffice() is used outside the back office tool.');
  return office;
}
