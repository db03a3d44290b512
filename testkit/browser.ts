import { existsSync } from 'node:fs';

import { withoutFakeClock } from './fake-clock.ts';

/**
 * Debian's Chromium, as every browser test and measuring script launches it (never a downloaded
 * browser). Without the background-networking flags it dials Google's hosts at every start, which this
 * machine's closed network refuses.
 */

/** The browser the measuring scripts time: Chromium itself, as visitors and PageSpeed's Lighthouse run it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The browser the tests drive: Debian's headless shell of the same Chromium (chromium-headless-shell), what
 * Playwright itself runs headless tests in. It opens a page in about a third of the time the full browser
 * takes on two cores (docs/testing.md); Chromium itself where the shell is not installed, or CHROMIUM_PATH.
 */
export const TEST_CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_PATH);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The environment Chromium starts in: this process's, less libfaketime's preload when the suite runs with
 * its clock moved (docs/testing.md), under which Chromium hangs; its pages get the date from
 * testkit/browser-clock.ts instead.
 */
export const chromiumEnv = () => withoutFakeClock(process.env);
