/**
 * Every server of the `site` measurement, up at once: the deployed shape (the standalone server behind
 * nginx's cache), the bare standalone server, nginx serving the stack's own copies of `/` as files, and
 * the fixture's plain Next pages. /studio is timed right after the stack's start.
 */
import path from 'node:path';

import { freePort } from '../../testkit/processes.ts';
import { startStack } from '../../testkit/stack.ts';
import { firstByteMs } from '../lib/http-load.ts';
import { privateSite, startBare, startFixture } from '../lib/servers.ts';
import { pageCopies, startStaticNginx } from '../lib/static-nginx.ts';
import { median } from '../report.ts';
import { CONFIG, log } from './settings.ts';

/** High enough that no submission of the run is refused: the bench measures the store, not the limiter. */
const NO_RATE_LIMIT = { RATE_LIMIT_MAX: '1000000000', RATE_LIMIT_SITE_MAX: '1000000000' };

export type Servers = { stack: string; bare: string; file: string; fixture: string; contentFile: string; secret: string };

/** /studio's first load after the app started (nothing asked for it before), then CONFIG.studioLoads more. */
async function studio(origin: string) {
  const first = await firstByteMs(`${origin}/studio`);
  const later: number[] = [];
  for (let load = 0; load < CONFIG.studioLoads; load++) later.push((await firstByteMs(`${origin}/studio`)).ms);
  return { status: first.status, firstMs: first.ms, laterMedianMs: median(later) };
}
export type StudioTimes = Awaited<ReturnType<typeof studio>>;

/** The servers, each store in `dir`/data-<side> (the stack's side is `cache`). */
export async function startServers(dir: string, nginxBin: string) {
  const site = await privateSite(dir, log);
  // The stack sets the proxy hops it has (nginx: one); the bare server has none in front of it.
  const { TRUSTED_PROXY_HOPS: _, ...inherited } = process.env;
  const env = { ...inherited, ...NO_RATE_LIMIT, ...site.env };
  const stack = await startStack({
    port: await freePort(),
    runDir: path.join(dir, 'stack'),
    env: { ...env, DATA_DIR: path.join(dir, 'data-cache') },
    build: 'never',
    paths: site.paths,
    log,
  });
  log(`stack at ${stack.url}; /studio first`);
  const studioTimes = await studio(stack.url);
  const bare = await startBare(site.paths, { ...env, DATA_DIR: path.join(dir, 'data-bare') });
  const file = await startStaticNginx({
    bin: nginxBin,
    runDir: path.join(dir, 'static'),
    port: await freePort(),
    page: await pageCopies(`${stack.url}/`),
  });
  const fixture = await startFixture(log);
  const servers: Servers = {
    stack: stack.url,
    bare: bare.origin,
    file: file.origin,
    fixture: fixture.origin,
    contentFile: site.contentFile,
    secret: site.secret,
  };
  return { servers, studio: studioTimes, stop: () => Promise.all([stack.stop(), bare.stop(), file.stop(), fixture.stop()]) };
}
