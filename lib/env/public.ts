/**
 * Environment that may reach the browser. Every variable is read by its literal
 * name so Next can inline it into client bundles; nothing secret lives here.
 */

/** `apiHost`: another Content Lake than Sanity's own (SANITY_API_HOST), e.g. the local one of testkit/. */
export type SanityConfig = { projectId: string; dataset: string; apiVersion: string; apiHost?: string };
export type SupabaseConfig = { url: string; publishableKey: string };

/** The API version every Sanity read and TypeGen run is pinned to. */
export const SANITY_API_VERSION = '2025-10-01';

/** Both values of a pair of settings, or null when neither is set; half a pair throws, naming the missing one. */
export function pair<A extends string, B extends string>(
  names: [A, B],
  values: [string | undefined, string | undefined],
): [string, string] | null {
  const [a, b] = values.map((v) => v?.trim() || undefined);
  if (!a && !b) return null;
  // Half a configuration is a mistake, not a request for the embedded default.
  if (!a) throw new Error(`${names[0]} is not set, but ${names[1]} is. Set both or neither.`);
  if (!b) throw new Error(`${names[1]} is not set, but ${names[0]} is. Set both or neither.`);
  return [a, b];
}

/**
 * SANITY_API_HOST: the origin of the Content Lake API, for every Sanity client of the site (server,
 * browser, Studio) and the CSP; unset, Sanity's own hosts. next.config.ts inlines it into the browser
 * bundles at build time, as it does the NEXT_PUBLIC_ variables.
 */
export function sanityApiHost(): string | undefined {
  const raw = process.env.SANITY_API_HOST?.trim();
  if (!raw) return undefined;
  // null when unparsable, reported below with the other ways it can be wrong.
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(`SANITY_API_HOST must be an http(s) origin such as http://127.0.0.1:4555, got "${raw}".`);
  }
  return url.origin;
}

/** Hosted Sanity, or null for the embedded seed dataset in seed/. */
export function sanityConfig(): SanityConfig | null {
  const both = pair(
    ['NEXT_PUBLIC_SANITY_PROJECT_ID', 'NEXT_PUBLIC_SANITY_DATASET'],
    [process.env.NEXT_PUBLIC_SANITY_PROJECT_ID, process.env.NEXT_PUBLIC_SANITY_DATASET],
  );
  if (!both) return null;
  const apiHost = sanityApiHost();
  return { projectId: both[0], dataset: both[1], apiVersion: SANITY_API_VERSION, ...(apiHost ? { apiHost } : {}) };
}

/**
 * Options for any @sanity/client of this site: the project, and with SANITY_API_HOST its origin as the
 * whole API address (Sanity's own hosts put the project id in the hostname; another host does not).
 */
export function sanityClientOptions(config: SanityConfig) {
  const { apiHost, ...project } = config;
  return apiHost ? { ...project, apiHost, useProjectHostname: false } : project;
}

/** Hosted Supabase, or null for the embedded PGlite store under .data/. */
export function supabaseConfig(): SupabaseConfig | null {
  const both = pair(
    ['NEXT_PUBLIC_SUPABASE_URL', 'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY'],
    [
      process.env.NEXT_PUBLIC_SUPABASE_URL,
      // The legacy anon key still works as the public key of older projects.
      process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY || process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY,
    ],
  );
  return both && { url: both[0], publishableKey: both[1] };
}

/** Absolute origin of the public site, for canonical URLs, sitemap and Open Graph. */
export function siteUrl(): string {
  return (process.env.NEXT_PUBLIC_SITE_URL?.trim() || 'http://localhost:3000').replace(/\/+$/, '');
}
