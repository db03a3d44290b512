/**
 * Playwright's globalSetup (playwright.config.ts): waits until every browser-test server answers. Playwright
 * waits for each of its webServers in turn, and only until it listens: a server's first request then runs
 * its start (the store opened, the dataset read; about 13 s on a 2-core machine), and asked here of all of
 * them at once, those starts overlap instead of queueing.
 */
import { E2E_SERVERS } from './e2e-servers.ts';
import { waitForHttp } from './processes.ts';

export default async function warmE2EServers(): Promise<void> {
  await Promise.all(Object.values(E2E_SERVERS).map(({ url }) => waitForHttp(url, { timeoutMs: 120_000 })));
}
