/**
 * The deployed shape on one machine: N instances of the standalone app, each on a loopback port, behind
 * nginx, whose one upstream lists them all and which caches the public pages (deploy/nginx.conf.template).
 * `npm run serve:prod` runs it; the stack's test, the bench and the measuring scripts start it too.
 *
 * Nothing is restarted here: in production that is systemd's job (deploy/site@.service,
 * Restart=on-failure). `died` tells the caller when a child exits on its own; serve:prod then stops
 * the rest and exits non-zero, while a test may go on and watch nginx serve the cached pages.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

import { findNginx, INSTALL_HINT, startNginx, writeConfig } from './nginx.ts';
import { freePort, waitForHttp, type Child, type Exit } from './processes.ts';
import { buildPaths, ensureBuild, startApp, type BuildPaths } from './standalone.ts';

/** An error whose message is the whole story (no stack trace needed). */
export class StackError extends Error {}

/** One app instance: tests ask it directly (`origin`) and kill it (`process`). */
export type AppInstance = { name: string; origin: string; port: number; pid: number; process: Child };

type StackOptions = {
  /** nginx listens on 127.0.0.1:port */
  port: number;
  /** how many app instances (default 1); each gets a loopback port the OS picks */
  instances?: number;
  /** nginx's prefix, config, cache and temp files */
  runDir: string;
  /** every instance's environment (DATA_DIR and CONTENT_FILE absolute: the standalone server changes into its own folder) */
  env: NodeJS.ProcessEnv;
  /** auto: build when missing or older than the sources */
  build?: 'auto' | 'never' | 'always';
  log: (line: string) => void;
  /** each app's and nginx's output, line by line */
  forward?: (name: string, line: string) => void;
  /** the build to serve (default: NEXT_DIST_DIR's) */
  paths?: BuildPaths;
};

const alive = (pid: number, name: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name);
  } catch {
    return false;
  }
};

/** The nginx binary, and no nginx of an earlier stack still running from `runDir`. */
function nginxFor(env: NodeJS.ProcessEnv, runDir: string): string {
  const bin = findNginx(env);
  if (!bin) throw new StackError(`nginx was not found${env.NGINX_BIN ? ` at NGINX_BIN=${env.NGINX_BIN}` : ''}: ${INSTALL_HINT}`);
  const pidFile = path.join(runDir, 'nginx.pid');
  const earlier = Number(existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim());
  if (earlier && alive(earlier, 'nginx')) {
    throw new StackError(`an nginx of an earlier stack still runs from ${runDir} (pid ${earlier}): stop it, or set another STACK_DIR`);
  }
  return bin;
}

/** Starts `count` instances at once and resolves when each answers; on a failure, none is left running. */
async function startApps(count: number, paths: BuildPaths, env: NodeJS.ProcessEnv, forward: StackOptions['forward']) {
  const apps: AppInstance[] = [];
  for (let index = 0; index < count; index += 1) {
    const port = await freePort();
    const name = count === 1 ? 'app' : `app${index + 1}`;
    const child = startApp({ paths, port, env, forward: (line) => forward?.(name, line) });
    apps.push({ name, origin: `http://127.0.0.1:${port}`, port, pid: child.pid!, process: child });
  }
  try {
    await Promise.all(apps.map((app) => waitForHttp(`${app.origin}/`, { child: app.process })));
  } catch (error) {
    await Promise.all(apps.map((app) => app.process.stop()));
    throw error;
  }
  return apps;
}

/** The first child to exit on its own, or null once the stack is stopped. */
function firstDeath(children: Child[], stopping: () => boolean): Promise<{ name: string; exit: Exit } | null> {
  return Promise.race(children.map(async (child) => ({ name: child.name, exit: await child.exited }))).then((death) =>
    stopping() ? null : death,
  );
}

export async function startStack({
  port,
  instances = 1,
  runDir,
  env,
  build = 'auto',
  log,
  forward,
  paths = buildPaths(env.NEXT_DIST_DIR || undefined),
}: StackOptions) {
  const bin = nginxFor(env, runDir);
  await ensureBuild(paths, build, env, log).catch((error: Error) => {
    throw new StackError(error.message);
  });
  const url = `http://127.0.0.1:${port}`;
  await rm(path.join(runDir, 'cache'), { recursive: true, force: true });
  await mkdir(runDir, { recursive: true });
  const refreshSecret = randomBytes(16).toString('hex');
  const appEnv = {
    ...env,
    NEXT_TELEMETRY_DISABLED: '1',
    // nginx replaces X-Forwarded-For with the address it saw; the app takes that one entry.
    TRUSTED_PROXY_HOPS: '1',
    // A publish refreshes nginx's copies of the pages (lib/cache/cache-refresh.ts).
    CACHE_REFRESH_URL: url,
    CACHE_REFRESH_SECRET: refreshSecret,
  };
  // The apps first, so that nginx's first requests find them up.
  const apps = await startApps(instances, paths, appEnv, forward);
  const appPorts = apps.map((app) => app.port);
  let nginx: Child | undefined;
  let config: string;
  try {
    config = await writeConfig({ bin, runDir, listen: `127.0.0.1:${port}`, appPorts, staticDir: paths.staticDir, refreshSecret });
    nginx = startNginx({ bin, runDir, config, forward: (line) => forward?.('nginx', line) });
    // Through nginx to an app: this also puts / in the cache.
    await waitForHttp(`${url}/`, { child: nginx, timeoutMs: 10_000 });
  } catch (error) {
    await Promise.all([...apps.map((app) => app.process.stop()), nginx?.stop()]);
    throw error;
  }

  let stopping = false;
  const stop = async () => {
    stopping = true;
    // nginx finishes the requests it has (SIGQUIT); Next finishes its own on SIGTERM.
    await Promise.all([nginx.stop({ signal: 'SIGQUIT' }), ...apps.map((app) => app.process.stop())]);
  };
  const died = firstDeath([nginx, ...apps.map((app) => app.process)], () => stopping);
  return { url, apps, nginx, runDir, config, stop, died };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;
