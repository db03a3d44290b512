import { fileURLToPath } from 'node:url';

import type { NextConfig } from 'next';

import { MAX_BODY_BYTES } from '@school-site/guards';

import { requireNodeVersion } from './lib/env/node-version.mjs';
import { configuredServices, siteHeaders, studioHeaders } from './lib/http/security-headers';
import { DEFAULT_LANGUAGE_PATHS, DEFAULT_SEGMENT, NOT_FOUND_HEADER, NOT_FOUND_PATH, TO_NOT_FOUND } from './lib/shared/public-pages';

// Every `next` command reads this file first: an older Node stops here, told what to install, not after a build.
requireNodeVersion();

/** A file of this app by absolute path, as Next wants its cache handlers named. */
const appFile = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

const asList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // Inlined into every bundle at build time, like the NEXT_PUBLIC_ variables: the Studio in the browser
  // talks to the same Content Lake as the server (lib/env/public.ts, sanityApiHost).
  env: { SANITY_API_HOST: process.env.SANITY_API_HOST?.trim() ?? '' },
  // Lets benchmarks and parallel test runs keep separate builds side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // .next/standalone: a server with only the files it needs (npm run serve:prod runs it behind nginx).
  output: 'standalone',
  // Files the server reads or runs at run time from the app's folder (lib/shared/app-root.mjs): the store's
  // worker thread and its imports, the migrations, the seed dataset. Next applies these to its dynamic
  // routes (the API routes); the standalone folder holds the files of every route.
  outputFileTracingIncludes: {
    '/**': [
      './lib/shared/app-root.mjs',
      './lib/store/pglite-worker.mjs',
      './lib/store/pglite-core.mjs',
      './lib/store/pglite-call.mjs',
      './supabase/migrate.mjs',
      './supabase/bootstrap.sql',
      './supabase/migrations/*.sql',
      './seed/production.ndjson',
    ],
  },
  reactStrictMode: true,
  // The workspace packages export their TypeScript source: Next compiles them with the app.
  transpilePackages: ['@school-site/content-lake', '@school-site/guards'],
  // npm test runs next typegen and tsc over the whole project before it builds, and says so with
  // TYPES_CHECKED=1: Next's own check is then the same work again, in each of its two builds (21–27 s
  // apiece). Any other build checks.
  typescript: { ignoreBuildErrors: process.env.TYPES_CHECKED === '1' },
  // Content is cached with 'use cache' (lib/content/fetch.ts) until the publish webhook revalidates its
  // tags; the pages are prerendered from it.
  cacheComponents: true,
  // Set (either way) so Next does not warn at every start. The site's links are plain <a>, so nothing
  // prefetches either way; with `true`, the re-prerender after a publish logged "Unexpected cache miss
  // after cache warming phase" (publish.spec and copy.spec: 2 such errors with true, 0 with false).
  partialPrefetching: false,
  // Both caches, the 'use cache' entries and the prerendered pages: Next's own (the pages dated from their
  // render's start), unless REDIS_URL is set when the server starts; then shared by every instance through
  // Redis (lib/cache/, docs/deploying.md).
  // Not on Vercel (it sets VERCEL=1 for the build): there the platform's own cache is shared already.
  ...(process.env.VERCEL
    ? {}
    : {
        cacheHandler: appFile('./lib/cache/incremental-handler.ts'),
        cacheHandlers: { default: appFile('./lib/cache/use-cache-handler.ts'), remote: appFile('./lib/cache/use-cache-handler.ts') },
      }),
  // PGlite loads its WebAssembly and data files from its own package directory. ioredis: the webhook
  // route shares the cache handlers' connection (lib/cache/redis-link.ts), which Node loads unbundled.
  serverExternalPackages: ['@electric-sql/pglite', 'sanity', 'ioredis'],
  poweredByHeader: false,
  // Next hashes the whole HTML in JavaScript on every request to make an ETag: a fifth of the CPU
  // time of serving a prerendered page (measured with --cpu-prof). Pages carry s-maxage for a CDN,
  // which revalidates on its own; without one a browser re-downloads ~7 KB gzip instead of a 304.
  generateEtags: false,
  // Next's redirect of /support/ to /support carries none of the headers below; proxy.ts makes it instead.
  skipTrailingSlashRedirect: true,
  experimental: {
    // Two root layouts (site and Studio) need one 404 for every unmatched path.
    globalNotFound: true,
    // The site's one stylesheet (app/globals.css: Tailwind, 10.3 KB, 3.2 KB gzip) goes into each page's
    // <head> as a <style> instead of a <link>: the first paint waits for the HTML alone, not for a second
    // request over a mobile connection (docs/measuring.md). Costs: every page view carries the
    // CSS (and Next repeats it in the page's RSC payload), a returning visitor cannot take it from the
    // cache, and style-src must allow inline styles, which it does already (lib/http/security-headers.ts).
    inlineCss: true,
    // Next copies the body of every request proxy.ts sees into memory, up to this much, before the proxy
    // runs (default 10 MB). The proxy refuses anything over MAX_BODY_BYTES; four times that keeps a
    // truncated copy (Next drops the chunk that crosses the limit, up to 64 KB) still over the cap.
    proxyClientMaxBodySize: 4 * MAX_BODY_BYTES,
    // Turbopack's build cache (.next/cache) makes the next build faster where it is kept. CI builds a fresh
    // clone and never reads it, so it does not write one either (Next's guide to this option says as much).
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
  async headers() {
    // Next sets NODE_ENV before it loads this file: 'development' under next dev (Next's CSP guide).
    const services = { ...configuredServices(), development: process.env.NODE_ENV === 'development' };
    return [
      // Every response gets the site's policy; the Studio's own paths then get the one it needs (for the
      // same header the later rule wins). Paths that merely start with "studio" (/studiox) are the site's.
      { source: '/:path*', headers: asList(siteHeaders(services)) },
      // Draft mode (Next's own cookie): the preview's policy, for its Live stream (lib/http/security-headers.ts).
      { source: '/:path*', has: [{ type: 'cookie', key: '__prerender_bypass' }], headers: asList(siteHeaders(services, true)) },
      { source: '/studio', headers: asList(studioHeaders(services)) },
      { source: '/studio/:path+', headers: asList(studioHeaders(services)) },
    ];
  },
  async redirects() {
    // The default language's pages have no prefix: its route segment is not an address of its own.
    // The 404's path (NOT_FOUND_PATH) names no page and stays.
    return [
      { source: `/${DEFAULT_SEGMENT}`, destination: '/', permanent: true },
      { source: `/${DEFAULT_SEGMENT}/:path((?!_not-found$).+)`, destination: '/:path', permanent: true },
    ];
  },
  async rewrites() {
    return {
      // The site's pages render under their language's segment (app/(site)/[lang]); the default language's
      // are at the unprefixed paths, before any file route could take "support" for a language.
      beforeFiles: [
        // A path proxy.ts found names no page: the site's 404 page, in the process.
        { source: '/:path*', has: [{ type: 'header', key: NOT_FOUND_HEADER, value: TO_NOT_FOUND }], destination: NOT_FOUND_PATH },
        ...DEFAULT_LANGUAGE_PATHS.map((source) => ({
          source,
          destination: source === '/' ? `/${DEFAULT_SEGMENT}` : `/${DEFAULT_SEGMENT}${source}`,
        })),
      ],
      // Every Studio path is the one prerendered /studio page; the Studio's client router reads the address
      // itself. A dynamic segment here would render and cache each made-up path on disk, for a year.
      afterFiles: [{ source: '/studio/:path+', destination: '/studio' }],
      fallback: [],
    };
  },
};

export default nextConfig;
