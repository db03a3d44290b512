import type { NextConfig } from 'next';

import { siteHeaders, studioHeaders } from './lib/security-headers';

const env = {
  supabaseUrl: process.env.NEXT_PUBLIC_SUPABASE_URL,
  sanityProjectId: process.env.NEXT_PUBLIC_SANITY_PROJECT_ID,
};

const asList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // Lets benchmarks and parallel test runs keep separate builds side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // .next/standalone: a server with only the files it needs (npm run serve:prod runs it behind nginx).
  output: 'standalone',
  // Files the server reads or runs at run time from the app's folder (lib/app-root.mjs): the store's
  // worker thread and its imports, the migrations, the seed dataset. Next applies these to its dynamic
  // routes (the API routes); the standalone folder holds the files of every route.
  outputFileTracingIncludes: {
    '/**': [
      './lib/app-root.mjs',
      './lib/support/pglite-worker.mjs',
      './lib/support/pglite-core.mjs',
      './supabase/migrate.mjs',
      './supabase/bootstrap.sql',
      './supabase/migrations/*.sql',
      './content/production.ndjson',
    ],
  },
  reactStrictMode: true,
  // PGlite loads its WebAssembly and data files from its own package directory.
  serverExternalPackages: ['@electric-sql/pglite'],
  poweredByHeader: false,
  // Next hashes the whole HTML in JavaScript on every request to make an ETag: a fifth of the CPU
  // time of serving a prerendered page (measured with --cpu-prof). Pages carry s-maxage for a CDN,
  // which revalidates on its own; without one a browser re-downloads ~7 KB gzip instead of a 304.
  generateEtags: false,
  experimental: {
    // Two root layouts (site and Studio) need one 404 for every unmatched path.
    globalNotFound: true,
  },
  async headers() {
    return [
      // Everything but the Studio gets the site's policy; the Studio gets the looser one it needs.
      { source: '/((?!studio).*)', headers: asList(siteHeaders(env)) },
      { source: '/studio/:path*', headers: asList(studioHeaders(env)) },
      { source: '/studio', headers: asList(studioHeaders(env)) },
    ];
  },
};

export default nextConfig;
