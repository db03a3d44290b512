/**
 * Lighthouse (its default config: mobile, simulated throttling) as a node library, in Debian's Chromium
 * launched by chrome-launcher: the one way the budget test and the bench run it.
 */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumEnv } from './browser.ts';

/** A headless Chromium with a DevTools port for Lighthouse (the tests pass TEST_CHROMIUM_PATH); kill() when done. */
export async function launchLighthouseBrowser(chromePath = CHROMIUM_PATH) {
  const chrome = await launch({
    chromePath,
    chromeFlags: ['--headless', '--disable-dev-shm-usage', ...CHROMIUM_ARGS],
    envVars: chromiumEnv(),
  });
  return { port: chrome.port, kill: () => chrome.kill() };
}

export type Throttling = 'simulate' | 'devtools';

/**
 * One Lighthouse run of `url` in the browser on `port`, limited to `categories`: its report and the
 * artifacts it was computed from (the trace); throws when the page did not load. `throttling`:
 * 'simulate' (the default config's) loads the page at full speed and computes the throttled metrics
 * from that load; 'devtools' throttles the load itself (network and CPU), so its paints happened at
 * those speeds. `audits`: these audits instead of all of `categories` (and only the gatherers they
 * need); a category's score is then the weighted mean of those of its audits that ran.
 */
export async function lighthouseRun(
  url: string,
  port: number,
  categories: string[],
  throttling: Throttling = 'simulate',
  audits?: readonly string[],
) {
  const only = audits ? { onlyAudits: [...audits] } : { onlyCategories: categories };
  // No full-page screenshot: no score reads it, and it is a second capture of every run.
  const flags = {
    port,
    hostname: '127.0.0.1',
    output: 'json' as const,
    logLevel: 'error' as const,
    ...only,
    disableFullPageScreenshot: true,
  };
  const result = await lighthouse(url, { ...flags, throttlingMethod: throttling });
  const lhr = result?.lhr;
  if (!result || !lhr || lhr.runtimeError)
    throw new Error(`Lighthouse could not load ${url}: ${lhr?.runtimeError?.message ?? 'no result'}`);
  return { lhr, artifacts: result.artifacts };
}

/** lighthouseRun's report alone. */
export async function lighthouseReport(...args: Parameters<typeof lighthouseRun>) {
  return (await lighthouseRun(...args)).lhr;
}
