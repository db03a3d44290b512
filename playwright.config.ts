import { availableParallelism } from 'node:os';

import { defineConfig, devices } from '@playwright/test';

import { E2E_SERVERS } from './testkit/e2e-servers';
import { SANITY_API_VERSION } from './lib/env/public';
import { CHROMIUM_ARGS, chromiumEnv, TEST_CHROMIUM_PATH } from './testkit/browser';
import { LAKE_ORIGIN, LAKE_PORT, LAKE_PROJECT, LAKE_TOKEN } from './testkit/hosted';
import { lakeTls } from './testkit/lake-tls';

/**
 * Browser tests against the production build (npm run build first; npm test does both), in Debian's
 * Chromium — nothing downloads a browser. The server gets its own embedded store and its own copy
 * of the seed dataset (testkit/e2e-server.mjs prepares both before `next start`), which the publish
 * tests edit and then announce through the signed webhook.
 */

// The hosted stand-in serves HTTPS with its own certificate: the workers (the tests' clients) and the
// servers started here trust it, as Node reads this when each process starts.
process.env.NODE_EXTRA_CA_CERTS = lakeTls().certFile;

// Inlined at build time; npm test builds with the same value (scripts/test.mjs).
const SITE_URL = process.env.NEXT_PUBLIC_SITE_URL ?? E2E_SERVERS.main.url;

/**
 * The second worker's tests: those on servers of their own (the lake's SIGKILL, serve:prod, many
 * instances, faults) and Lighthouse, which only reads `strict`'s pages. None touches the dataset `main`
 * serves. The tests on the hosted build and on `strict` (quotas, axe), and publish-path.spec on a server of
 * its own, touch neither; they run with `main`'s, which keeps the two workers' shares about equal
 * (docs/testing.md). Matched against "project file describe title", as Playwright's grep is.
 */
const ISOLATED = [
  /studio-lake\.spec|policy-notice\.spec|right-to-left\.spec|stack\.spec|scale\.spec|back-office\.spec/,
  /faults\.spec\.ts (?!the submission key)/,
  /budgets\.spec\.ts Lighthouse/,
];

export default defineConfig({
  testDir: 'tests/e2e',
  // Two workers, one per project below, each running its files one at a time: the publish and copy tests
  // edit the one dataset `main` serves, and every other test of `main` would see those edits, so those
  // tests keep one worker; the isolated ones run beside them. Half of a browser test's time is waiting
  // (a server's start, a publish, a timeout), which the other worker fills. One where the process may use
  // one core (`taskset -c 0`): there a second Chromium only halves the first one's speed, and the Studio
  // keeps its own clocks (Presentation gives the preview 8 s to connect), which no test can lengthen.
  workers: Math.min(2, availableParallelism()),
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // "list" prints each test and the "N passed" summary, in a terminal and in CI logs alike; then the
  // slowest tests beside their limits.
  reporter: [['list'], ['./testkit/slowest-tests.ts']],
  timeout: 30_000,
  // Waiting assertions wait up to 15 s: what passes at once still passes at once, and a page that takes
  // longer on a slower or busier machine (the Studio's panes, a publish) is not a failure.
  expect: { timeout: 15_000 },
  use: {
    baseURL: E2E_SERVERS.main.url,
    // What a failure leaves to read: each action with its timing, the network and the console, and the page
    // as it failed. Not the DOM snapshots and screencast of every action: recording them made the Studio's
    // tests take 1.6x as long, and on one core pushed Presentation's preview past the 8 s the Studio gives
    // it to connect (docs/testing.md).
    trace: { mode: 'retain-on-failure', snapshots: false, screenshots: false },
    screenshot: 'only-on-failure',
    // The site scrolls smoothly for visitors who have not asked for less motion. A click scrolls its target
    // into view first and aims where the target is when that scroll reports done; on a busy machine a
    // smooth scroll is still under way then, and the click lands where the link was, on nothing.
    // tests/e2e/site.spec.ts checks the smooth scrolling itself.
    reducedMotion: 'reduce',
  },
  projects: [
    { name: 'main', grepInvert: ISOLATED, workers: 1 },
    { name: 'isolated', grep: ISOLATED, workers: 1 },
  ].map((project) => ({
    ...project,
    use: {
      ...devices['Desktop Chrome'],
      launchOptions: { executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_ARGS, env: chromiumEnv() },
    },
  })),
  // Not `npm run start`: the data dir and the dataset copy must be ready before each server starts,
  // and Playwright starts webServers before any globalSetup (checked in 1.65).
  // The Node running Playwright (24 under npm test), not whatever `node` is first on PATH.
  // Playwright waits for each site server only until it listens, so their starts (the store opened) overlap;
  // the global setup then waits until each answers.
  globalSetup: './testkit/e2e-warm.ts',
  webServer: [
    // The hosted server's Content Lake: the seed, served by the stand-in, which the hosted tests edit.
    {
      command: `${JSON.stringify(process.execPath)} testkit/content-lake/cli.ts` + ` --port ${LAKE_PORT} --token ${LAKE_TOKEN}`,
      url: `${LAKE_ORIGIN}/v${SANITY_API_VERSION}/data/query/${LAKE_PROJECT.dataset}?query=1`,
      ignoreHTTPSErrors: true,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    ...Object.values(E2E_SERVERS).map(({ port, env }) => ({
      command: `${JSON.stringify(process.execPath)} testkit/e2e-server.mjs -p ${port} -H 127.0.0.1`,
      port,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
      env: { ...env, NEXT_PUBLIC_SITE_URL: SITE_URL },
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
    })),
  ],
});
