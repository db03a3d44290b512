/**
 * Debian's Chromium, as every browser test and measuring script launches it (never a downloaded
 * browser). Without the background-networking flags it dials Google's hosts at every start, which this
 * machine's closed network refuses.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
