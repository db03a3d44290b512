/**
 * The servers the measurements compare: a private copy of the current build with its own dataset, its
 * standalone server alone (the bare server), and the empty Next app of bench/fixture.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';

import { startAppServer } from '../../testkit/app-server.ts';
import { addArabic, seedCopy } from '../../testkit/dataset.ts';
import { freePort, waitForHttp } from '../../testkit/processes.ts';
import { startStack } from '../../testkit/stack.ts';
import { copyStandalone, startApp, type BuildPaths } from '../../testkit/standalone.ts';
import { currentBuild, FIXTURE_DIR, fixtureBuild } from './build.ts';

type Log = (line: string) => void;

/**
 * The current build's standalone folder and the seed dataset, copied into `dir` (a publish rewrites the
 * server's own prerendered pages and the dataset: neither may reach the real ones), with a webhook
 * secret of their own; `env` points a server at them.
 */
export async function privateSite(dir: string, log: Log) {
  const secret = randomBytes(16).toString('hex');
  const contentFile = await seedCopy(dir);
  // A right-to-left language beside the seed's, for its pages' rows.
  await addArabic(contentFile);
  const paths = await copyStandalone(await currentBuild(log), path.join(dir, 'standalone'));
  return { paths, contentFile, secret, env: { CONTENT_FILE: contentFile, SANITY_REVALIDATE_SECRET: secret } };
}

/** serve:prod's stack (testkit/stack.ts) on a private site's copy of the build: `instances` behind nginx, on a free port. */
export async function privateStack(dir: string, site: { paths: BuildPaths }, instances: number, env: NodeJS.ProcessEnv, log: Log) {
  return startStack({ port: await freePort(), instances, runDir: path.join(dir, 'run'), env, build: 'never', paths: site.paths, log });
}

/** The standalone server of `paths` on its own (no nginx) on a free port, once it answers. */
export async function startBare(paths: BuildPaths, env: NodeJS.ProcessEnv) {
  const port = await freePort();
  const child = startApp({ paths, port, env });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/`, { child });
  return { origin, stop: () => child.stop() };
}

/** The fixture's `next start` (built first when missing or stale). */
export async function startFixture(log: Log) {
  await fixtureBuild(log);
  return startAppServer({ NEXT_DIST_DIR: '.next' }, { dir: FIXTURE_DIR });
}
