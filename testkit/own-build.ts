import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

import { APP_ROOT } from './paths.ts';

/**
 * A build of the app as one server's own. `next start` writes each page it renders into its build folder and
 * reads a page it has not rendered itself from there, so a server sharing the folder serves what another
 * rendered from its own content (the browser tests' `main` server, mid-edit, to a server started on the
 * seed). Everything but the build's cache and standalone copy (about 65 MB, a second to copy), in the app's
 * folder as `.next-server-*` (gitignored): the server finds the app as its build's parent (lib/shared/app-root.mjs).
 *
 * Only relative imports with real extensions and packages: testkit/e2e-server.mjs imports this file with plain `node`.
 */
export async function ownBuild(source = process.env.NEXT_DIST_DIR || '.next'): Promise<{ distDir: string; remove: () => Promise<void> }> {
  const from = path.resolve(APP_ROOT, source);
  const copy = await mkdtemp(path.join(APP_ROOT, '.next-server-'));
  for (const entry of await readdir(from))
    if (entry !== 'cache' && entry !== 'standalone') await cp(path.join(from, entry), path.join(copy, entry), { recursive: true });
  return { distDir: path.relative(APP_ROOT, copy), remove: () => rm(copy, { recursive: true, force: true }) };
}
