import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests against the production build (npm run build first; npm test does both), in Debian's
 * Chromium — nothing downloads a browser. The server gets its own embedded store and its own copy
 * of the seed dataset (scripts/e2e-server.mjs prepares both before `next start`), which the publish
 * tests edit and then announce through the signed webhook.
 */

// E2E_PORT lets parallel worktrees run the suite side by side; scripts/test.mjs builds with the same origin.
const PORT = Number(process.env.E2E_PORT || 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The test server's environment; the tests read the same names with the same defaults (tests/e2e/support). */
const SERVER_ENV = {
  DATA_DIR: '.data/e2e',
  CONTENT_FILE: '.data/e2e/content/production.ndjson',
  RATE_LIMIT_MAX: '1000',
  SANITY_REVALIDATE_SECRET: 'e2e-webhook-secret',
  // Inlined at build time; npm test builds with the same value (scripts/test.mjs).
  NEXT_PUBLIC_SITE_URL: process.env.NEXT_PUBLIC_SITE_URL ?? BASE_URL,
};

export default defineConfig({
  testDir: 'tests/e2e',
  // One worker: the publish tests edit the one dataset the server reads, and every other test would
  // see those edits. Two cores would gain little anyway with the server on one of them.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // "list" prints each test and the "N passed" summary, in a terminal and in CI logs alike.
  reporter: 'list',
  timeout: 30_000,
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: CHROMIUM,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    // Not `npm run start`: the data dir and the dataset copy must be ready before the server starts,
    // and Playwright starts the webServer before any globalSetup (checked in 1.65).
    // The Node running Playwright (24 under npm test), not whatever `node` is first on PATH.
    command: `${JSON.stringify(process.execPath)} scripts/e2e-server.mjs -p ${PORT} -H 127.0.0.1`,
    url: BASE_URL,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    env: SERVER_ENV,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
