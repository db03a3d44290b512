import 'server-only';

import { constants } from 'node:fs';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { appPath } from '../shared/app-root.mjs';
import { backOfficeHmacKey, backOfficeRoles } from './back-office';
import { mailFrom, smtpTimeoutMs, smtpUrl } from './mail';
import { pair, sanityConfig, supabaseConfig } from './public';
import { redisUrl } from './redis';
import { numberSetting, optional } from './settings';

export { backOfficeHmacKey, backOfficeRoles, mailFrom, redisUrl, smtpTimeoutMs, smtpUrl };

/**
 * Server-only environment: secrets and local paths. Importing this from a
 * client component fails the build, which is the point.
 */

const positiveInt = (name: string, fallback: number, max: number) => numberSetting(name, fallback, { min: 1, max, whole: true });

/** Viewer token for drafts and Live; absent means published content only. */
export const sanityReadToken = (): string | undefined => optional('SANITY_API_READ_TOKEN');

/** Optional Viewer token shared with browsers so open tabs can follow drafts live. */
export const sanityBrowserToken = (): string | undefined => optional('SANITY_API_BROWSER_TOKEN');

/**
 * The token with which the publish webhook writes the privacy policy's versions on a hosted project
 * (lib/content/policy-record-hosted.ts); absent means no version is recorded there. Not the operator's
 * SANITY_API_WRITE_TOKEN, which stays off the server.
 */
export const sanityRecordToken = (): string | undefined => optional('SANITY_API_RECORD_TOKEN');

/**
 * The Supabase project's secret key (or its legacy service_role key): the calls only the server makes,
 * which the public key may not (the senders' outbox, announcing a version). Never in a browser bundle.
 */
export const supabaseSecretKey = (): string | undefined => optional('SUPABASE_SECRET_KEY');

function checkSupabaseSecretKey(): void {
  const config = supabaseConfig();
  if (!config) return;
  const secret = supabaseSecretKey();
  if (!secret) {
    throw new Error(
      "SUPABASE_SECRET_KEY is not set, but NEXT_PUBLIC_SUPABASE_URL is: the server sends the subscribers' emails with the project's secret key (or its legacy service_role key). Set it on the server only.",
    );
  }
  if (secret === config.publishableKey) throw new Error('SUPABASE_SECRET_KEY is the publishable key: set the secret (service_role) key.');
}

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
export const contentFile = (): string => pathSetting('CONTENT_FILE', appPath('seed', 'production.ndjson'));

/**
 * A caching proxy in front of this server that revalidateTag cannot purge (the nginx of deploy/), and
 * the secret that makes it take a page from here again: a publish refreshes it (lib/cache/cache-refresh.ts).
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
  // Load tests lift both far above anything a visitor meets.
  max: positiveInt('RATE_LIMIT_MAX', 5, 1_000_000_000),
  siteMax: positiveInt('RATE_LIMIT_SITE_MAX', 100, 1_000_000_000),
  // A week at most: longer windows outlive any server and exceed what a timer can hold anyway.
  windowSeconds: positiveInt('RATE_LIMIT_WINDOW_SECONDS', 600, 7 * 24 * 3600),
});

/**
 * How many proxies in front of the server the operator vouches for (nginx in deploy/: 1; Vercel: 1).
 * 0, the default, believes no X-Forwarded-For entry: the client is the TCP peer.
 */
export const trustedProxyHops = (): number => numberSetting('TRUSTED_PROXY_HOPS', 0, { min: 0, max: 10, whole: true });

/**
 * How long a write may take before the visitor is told it failed (both backends). The store may still
 * commit it later; the visitor's retry is then recognised as the same request (supabase/migrations).
 */
export const storeTimeoutMs = (): number => numberSetting('STORE_TIMEOUT_SECONDS', 10, { min: 0.1, max: 300, whole: false }) * 1000;

/**
 * Whether the embedded store forces each commit to the disk (fsync) before the visitor hears "Sent!".
 * Off trades a power loss's last commits for throughput; a crashed or killed server loses nothing either way.
 */
export function storeFsync(): boolean {
  const raw = optional('STORE_FSYNC') ?? 'on';
  if (raw !== 'on' && raw !== 'off') throw new Error(`STORE_FSYNC must be "on" or "off", got "${raw}".`);
  return raw === 'on';
}

/** Creates DATA_DIR if needed and proves a file can be written there (permissions, read-only mounts, a file in the way). */
async function checkDataDirWritable(): Promise<void> {
  const dir = dataDir();
  const probe = path.join(dir, `.write-check-${process.pid}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    throw new Error(`DATA_DIR ${dir} cannot be written: ${(error as Error).message}`, { cause: error });
  }
}

function checkSupabaseUrl(): void {
  const url = supabaseConfig()?.url;
  if (url === undefined) return;
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // Reported below.
  }
  if (protocol !== 'https:' && protocol !== 'http:') {
    throw new Error(`NEXT_PUBLIC_SUPABASE_URL must be an http(s) URL such as https://<project>.supabase.co, got "${url}".`);
  }
}

async function checkContentFileReadable(): Promise<void> {
  const file = contentFile();
  try {
    await access(file, constants.R_OK);
  } catch (error) {
    throw new Error(`CONTENT_FILE ${file} cannot be read: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Every check of the configuration, run once at start (instrumentation.ts): each throws an Error that
 * names the variable and what is wrong. Append new settings here.
 */
export const CONFIG_CHECKS: ReadonlyArray<() => unknown> = [
  sanityConfig,
  checkSupabaseUrl,
  rateLimit,
  trustedProxyHops,
  cacheRefresh,
  storeTimeoutMs,
  storeFsync,
  redisUrl,
  checkSupabaseSecretKey,
  smtpUrl,
  smtpTimeoutMs,
  mailFrom,
  backOfficeRoles,
  backOfficeHmacKey,
  // The embedded store (no hosted backend) and the mail files (no SMTP server) live in DATA_DIR.
  () => (supabaseConfig() && smtpUrl() ? undefined : checkDataDirWritable()),
  () => (sanityConfig() ? undefined : checkContentFileReadable()),
];

/** Runs every check and throws one Error listing all that failed, so one start shows every mistake. */
export async function checkConfiguration(checks: ReadonlyArray<() => unknown> = CONFIG_CHECKS): Promise<void> {
  // A set: checks that share a setting (the Supabase pair) report its mistake once.
  const problems = new Set<string>();
  for (const check of checks) {
    try {
      await check();
    } catch (error) {
      problems.add(error instanceof Error ? error.message : String(error));
    }
  }
  if (problems.size > 0) {
    throw new Error(`Configuration error; the server does not start until this is fixed:\n- ${[...problems].join('\n- ')}`);
  }
}
