import 'server-only';

import path from 'node:path';

import { appPath } from '../app-root.mjs';
import { pair } from './public';

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

/**
 * An operator's path resolves against the working directory, as they typed it; the default lies in the
 * app. (Next's standalone server.js changes into its own folder first, so there the two are the same.)
 * The ignore comment keeps Turbopack from tracing the whole project for a path known only at run time.
 */
function pathSetting(name: string, fallback: string): string {
  const custom = optional(name);
  return custom ? path.resolve(/* turbopackIgnore: true */ custom) : fallback;
}

/** Where the embedded stores keep their files (PGlite data directory). */
export const dataDir = (): string => pathSetting('DATA_DIR', appPath('.data'));

/** Where the embedded content source reads the NDJSON dataset from. */
export const contentFile = (): string => pathSetting('CONTENT_FILE', appPath('content', 'production.ndjson'));

/**
 * A caching proxy in front of this server that revalidateTag cannot purge (the nginx of deploy/), and
 * the secret that makes it take a page from here again: a publish refreshes it (lib/cache-refresh.ts).
 */
export function cacheRefresh(): { url: string; secret: string } | null {
  const both = pair(['CACHE_REFRESH_URL', 'CACHE_REFRESH_SECRET'], [process.env.CACHE_REFRESH_URL, process.env.CACHE_REFRESH_SECRET]);
  if (!both) return null;
  if (!/^https?:\/\/[^/]+\/?$/.test(both[0])) throw new Error(`CACHE_REFRESH_URL must be an http(s) origin, got "${both[0]}".`);
  return { url: both[0], secret: both[1] };
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
