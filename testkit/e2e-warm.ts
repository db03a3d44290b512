/**
 * Playwright's globalSetup (playwright.config.ts): waits until every browser-test server answers. `next start`
 * listens before its start has finished (instrumentation opens a fresh store: about 7 s of the ~12 s before a
 * first answer on a 2-core machine), and requests wait for it. Playwright starts its webServers in turn and
 * waits for each only until it listens, so those starts overlap; this waits for all of them to end.
 */
import { E2E_SERVERS } from './e2e-servers.ts';
import { waitForHttp } from './processes.ts';

export default async function warmE2EServers(): Promise<void> {
  await Promise.all(Object.values(E2E_SERVERS).map(({ url }) => waitForHttp(url, { timeoutMs: 120_000 })));
}
