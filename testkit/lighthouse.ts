/**
 * Lighthouse (its default config: mobile, simulated throttling) as a node library, in Debian's Chromium
 * launched by chrome-launcher: the one way the budget test and the bench run it.
 */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';

/** A headless Chromium with a DevTools port for Lighthouse; kill() when done. */
export async function launchLighthouseBrowser() {
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless', '--disable-dev-shm-usage', ...CHROMIUM_ARGS] });
  return { port: chrome.port, kill: () => chrome.kill() };
}

/** One Lighthouse run of `url` in the browser on `port`, limited to `categories`; throws when the page did not load. */
export async function lighthouseReport(url: string, port: number, categories: string[]) {
  const result = await lighthouse(url, { port, hostname: '127.0.0.1', output: 'json', logLevel: 'error', onlyCategories: categories });
  const lhr = result?.lhr;
  if (!lhr || lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr?.runtimeError?.message ?? 'no result'}`);
  return lhr;
}
