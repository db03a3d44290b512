import type {
  LANDING_PAGE_QUERY_RESULT,
  PRIVACY_POLICY_QUERY_RESULT,
  SETTINGS_QUERY_RESULT,
  SUPPORT_PAGE_QUERY_RESULT,
} from '@/sanity.types';

import { queryDocuments } from '@school-site/content-lake';
import { LANDING_PAGE_QUERY, PRIVACY_POLICY_QUERY, SETTINGS_QUERY, SUPPORT_PAGE_QUERY } from '../lib/content/queries';
import { readDataset, type Doc } from './dataset';
import { SEED_FILE } from './paths';

/** The committed seed dataset, which unit tests read as the local lake answers the site. */
export { SEED_FILE };

function present<T>(value: T | null | undefined, what: string): T {
  if (value == null) throw new Error(`${what} is missing from ${SEED_FILE}`);
  return value;
}

/** The four page queries' published results over a dataset file (the seed by default), each present. */
export async function queryResults(file = SEED_FILE) {
  return resultsOf(await readDataset(file));
}

/** The four page queries' published results over `documents`, in `language` (the default's by default), each present. */
export async function resultsOf(documents: Doc[], language = 'en') {
  const params = { language };
  const [settings, landing, support, privacy] = await Promise.all([
    queryDocuments<SETTINGS_QUERY_RESULT>(documents, SETTINGS_QUERY, params, 'published'),
    queryDocuments<LANDING_PAGE_QUERY_RESULT>(documents, LANDING_PAGE_QUERY, params, 'published'),
    queryDocuments<SUPPORT_PAGE_QUERY_RESULT>(documents, SUPPORT_PAGE_QUERY, params, 'published'),
    queryDocuments<PRIVACY_POLICY_QUERY_RESULT>(documents, PRIVACY_POLICY_QUERY, params, 'published'),
  ]);
  return {
    settings: present(settings, 'siteSettings'),
    landing: present(landing, 'landingPage'),
    support: present(support, 'supportPage'),
    privacy: present(privacy, 'privacyPolicy'),
  };
}

/** Every string in a value, however deeply nested (Portable Text spans included). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
