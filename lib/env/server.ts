import 'server-only';

import path from 'node:path';

/**
 * Server-only environment: secrets and local paths. Importing this from a
 * client component fails the build, which is the point.
 */

function optional(name: string): string | undefined {
  return process.env[name]?.trim() || undefined;
}

function wholeNumber(name: string, fallback: number, min: number): number {
  const raw = optional(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, got "${raw}".`);
  }
  return value;
}

const positiveInt = (name: string, fallback: number) => wholeNumber(name, fallback, 1);

/** Viewer token for drafts and Live; absent means published content only. */
export const sanityReadToken = (): string | undefined => optional('SANITY_API_READ_TOKEN');

/** Optional Viewer token shared with browsers so open tabs can follow drafts live. */
export const sanityBrowserToken = (): string | undefined => optional('SANITY_API_BROWSER_TOKEN');

/** Shared secret of the Sanity webhook; absent means the webhook refuses everything. */
export const revalidateSecret = (): string | undefined => optional('SANITY_REVALIDATE_SECRET');

/** Where the embedded stores keep their files (PGlite data directory). */
export function dataDir(): string {
  const custom = optional('DATA_DIR');
  // The ignore comment keeps Turbopack from tracing the whole project for a path known only at run time.
  return custom ? path.resolve(/* turbopackIgnore: true */ custom) : path.join(process.cwd(), '.data');
}

/** Where the embedded content source reads the NDJSON dataset from. */
export function contentFile(): string {
  const custom = optional('CONTENT_FILE');
  return custom ? path.resolve(/* turbopackIgnore: true */ custom) : path.join(process.cwd(), 'content', 'production.ndjson');
}

/**
 * Limits on support requests and subscriptions together: `max` per client address and `siteMax` for
 * the whole site, both per window. The site-wide one bounds the rows any spread of addresses can write.
 */
export const rateLimit = () => ({
  max: positiveInt('RATE_LIMIT_MAX', 5),
  siteMax: positiveInt('RATE_LIMIT_SITE_MAX', 100),
  windowSeconds: positiveInt('RATE_LIMIT_WINDOW_SECONDS', 600),
});

/**
 * How many proxies in front of the server the operator vouches for (nginx in deploy/: 1; Vercel: 1).
 * 0, the default, believes no X-Forwarded-For entry: the client is the TCP peer.
 */
export const trustedProxyHops = (): number => wholeNumber('TRUSTED_PROXY_HOPS', 0, 0);
