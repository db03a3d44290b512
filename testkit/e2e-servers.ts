import { HOSTED_DIST_DIR, hostedEnv } from './hosted.ts';

/**
 * The production servers the browser tests run against (playwright.config.ts starts them). `main` lets
 * tests send as much as they like; `strict` keeps production-like quotas, for the tests that the quotas
 * hold; both run the embedded build. `hosted` runs the build configured for a Sanity project, whose
 * Content Lake is the local stand-in (testkit/hosted.ts).
 */
const PORT = Number(process.env.E2E_PORT || 3100);

export const WEBHOOK_SECRET = 'e2e-webhook-secret';

type E2EServer = { port: number; url: string; dataDir: string; distDir: string; env: Record<string, string> };

function server(port: number, dataDir: string, env: Record<string, string>): E2EServer {
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    distDir: env.NEXT_DIST_DIR ?? process.env.NEXT_DIST_DIR ?? '.next',
    env: {
      DATA_DIR: dataDir,
      CONTENT_FILE: `${dataDir}/seed/production.ndjson`,
      SANITY_REVALIDATE_SECRET: WEBHOOK_SECRET,
      ...env,
    },
  };
}

export const E2E_SERVERS = {
  main: server(PORT, '.data/e2e', { RATE_LIMIT_MAX: '1000', RATE_LIMIT_SITE_MAX: '100000' }),
  // Its own copy of the build: beside `main`, whose edits re-render pages into `.next` (testkit/own-build.ts).
  strict: server(PORT + 1, '.data/e2e-strict', {
    RATE_LIMIT_MAX: '3',
    RATE_LIMIT_SITE_MAX: '10',
    TRUSTED_PROXY_HOPS: '0',
    E2E_OWN_BUILD: '1',
  }),
  hosted: server(PORT + 2, '.data/e2e-hosted', {
    ...hostedEnv(),
    NEXT_DIST_DIR: HOSTED_DIST_DIR,
    RATE_LIMIT_MAX: '1000',
    RATE_LIMIT_SITE_MAX: '100000',
  }),
} as const;
