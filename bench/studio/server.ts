/**
 * The build's standalone server for the Studio measurement, from a private copy: a publish makes the
 * server rewrite its prerendered /privacy, which must not reach the real build (testkit/standalone.ts,
 * copyStandalone). It measures the existing build and never makes one.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';

import { seedCopy } from '../../testkit/dataset.ts';
import { freePort, waitForHttp } from '../../testkit/processes.ts';
import { buildPaths, buildState, copyStandalone, startApp } from '../../testkit/standalone.ts';

export type Site = {
  origin: string;
  /** Why the build is stale (older than the sources), when it is: the numbers are still the build's. */
  stale?: string;
  stop(): Promise<unknown>;
};

/** The build's standalone server, from a private copy in `dir`, on a seed copy and a store of its own. */
export async function startSite(dir: string, log: (line: string) => void): Promise<Site> {
  const paths = buildPaths(process.env.NEXT_DIST_DIR || undefined);
  const { state, reason } = buildState(paths);
  if (state === 'missing') throw new Error(`${reason}: run npm run build first (bench studio measures a build, it does not make one)`);
  if (state === 'stale') log(`warning: ${reason}; measuring the existing build`);
  const copy = await copyStandalone(paths, path.join(dir, 'standalone'));
  // Next leaves the static files (the Studio's JavaScript) out of the standalone folder; the server
  // serves them from its copy. Uncompressed: no nginx here, the server compresses as it answers.
  await cp(paths.staticSource, copy.staticDir, { recursive: true });
  const port = await freePort();
  const child = startApp({
    paths: copy,
    port,
    env: {
      ...process.env,
      DATA_DIR: path.join(dir, 'data'),
      CONTENT_FILE: await seedCopy(dir),
      // One editor and one poller: no quota should ever answer 429 here.
      RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_SITE_MAX: '1000000000',
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/`, { child, timeoutMs: 120_000 });
  return { origin, ...(state === 'stale' ? { stale: reason } : {}), stop: () => child.stop() };
}
