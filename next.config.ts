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
  reactStrictMode: true,
  // PGlite loads its WebAssembly and data files from its own package directory.
  serverExternalPackages: ['@electric-sql/pglite'],
  poweredByHeader: false,
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
