/**
 * The deployed shape on one machine: the standalone app on a loopback port behind nginx, which caches
 * the public pages (deploy/nginx.conf.template). `npm run serve:prod` runs it; the stack's test and the
 * bench can too. While the stack runs, an app that exits is started again (nginx serves the cached
 * pages meanwhile); nginx exiting ends the stack.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { findNginx, INSTALL_HINT, startNginx, writeConfig } from './nginx.ts';
import { freePort, sleep, waitForHttp, type Child } from './processes.ts';
import { buildPaths, buildState, prepareStatic, runBuild, startApp, type BuildPaths } from './standalone.ts';

/** The file a running stack describes itself in (URLs, process ids), inside its run directory. */
export const STATE_FILE = 'stack.json';

/** What STATE_FILE holds while the stack runs (rewritten when the app restarts). */
export type StackState = {
  /** nginx's address: the site. */
  url: string;
  /** serve:prod's own process. */
  pid: number;
  app: { origin: string; pid?: number };
  nginx: { pid?: number };
  runDir: string;
};

/** An error whose message is the whole story (no stack trace needed). */
export class StackError extends Error {}

/** Restarts wait 1 s, then twice as long each time, up to 30 s; an app that ran a minute starts at 1 s again. */
const RESTART_DELAY = { firstMs: 1000, maxMs: 30_000, healthyAfterMs: 60_000 };

const alive = (pid: number, name: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name);
  } catch {
    return false;
  }
};

type StackOptions = {
  /** nginx listens on 127.0.0.1:port */
  port: number;
  /** the app's loopback port (default: one the OS picks) */
  appPort?: number;
  /** nginx's prefix, config, cache and temp files, and the state file */
  runDir: string;
  /** the app's environment (DATA_DIR and CONTENT_FILE absolute: the standalone server changes into its own folder) */
  env: NodeJS.ProcessEnv;
  /** auto: build when missing or older than the sources */
  build?: 'auto' | 'never' | 'always';
  log: (line: string) => void;
  /** the app's and nginx's output, line by line */
  forward?: (name: string, line: string) => void;
  /** the build to serve (default: NEXT_DIST_DIR's) */
  paths?: BuildPaths;
};

export async function startStack({
  port,
  appPort,
  runDir,
  env,
  build = 'auto',
  log,
  forward,
  paths = buildPaths(env.NEXT_DIST_DIR || undefined),
}: StackOptions) {
  const bin = findNginx(env);
  if (!bin) throw new StackError(`nginx was not found${env.NGINX_BIN ? ` at NGINX_BIN=${env.NGINX_BIN}` : ''}: ${INSTALL_HINT}`);
  const earlier = Number(existsSync(path.join(runDir, 'nginx.pid')) && readFileSync(path.join(runDir, 'nginx.pid'), 'utf8').trim());
  if (earlier && alive(earlier, 'nginx')) {
    throw new StackError(`an nginx of an earlier stack still runs from ${runDir} (pid ${earlier}): stop it, or set another STACK_DIR`);
  }

  const { state, reason } = buildState(paths);
  if (build === 'always' || (build === 'auto' && state !== 'current')) {
    log(`building (${build === 'always' ? 'asked to' : reason}) ...`);
    runBuild(env);
  } else if (state === 'missing') {
    throw new StackError(`${reason}: run next build first, or leave out --no-build`);
  } else if (state === 'stale') {
    log(`warning: ${reason}; serving the existing build (--no-build)`);
  }
  const compressed = await prepareStatic(paths);
  if (compressed) log(`compressed ${compressed} static files for gzip_static and brotli_static`);

  const url = `http://127.0.0.1:${port}`;
  const appOrigin = `http://127.0.0.1:${appPort ?? (await freePort())}`;
  const appPortNumber = Number(new URL(appOrigin).port);
  await rm(path.join(runDir, 'cache'), { recursive: true, force: true });
  await mkdir(runDir, { recursive: true });
  const refreshSecret = randomBytes(16).toString('hex');
  const config = await writeConfig({
    bin,
    runDir,
    listen: `127.0.0.1:${port}`,
    appPort: appPortNumber,
    staticDir: paths.staticDir,
    refreshSecret,
  });
  const appEnv = {
    ...env,
    NEXT_TELEMETRY_DISABLED: '1',
    // nginx replaces X-Forwarded-For with the address it saw; the app takes that one entry.
    TRUSTED_PROXY_HOPS: '1',
    // A publish refreshes nginx's copies of the pages (lib/cache-refresh.ts).
    CACHE_REFRESH_URL: url,
    CACHE_REFRESH_SECRET: refreshSecret,
  };

  let app: Child | undefined;
  let stopping = false;
  // Written aside and renamed into place: a reader never sees half a file.
  const writeState = async () => {
    const file = path.join(runDir, STATE_FILE);
    const state: StackState = { url, pid: process.pid, app: { origin: appOrigin, pid: app?.pid }, nginx: { pid: nginx?.pid }, runDir };
    await writeFile(`${file}.tmp`, JSON.stringify(state, null, 2) + '\n');
    await rename(`${file}.tmp`, file);
  };

  const launchApp = async () => {
    app = startApp({ paths, port: appPortNumber, env: appEnv, forward: (line) => forward?.('app', line) });
    try {
      await waitForHttp(`${appOrigin}/`, { child: app });
    } catch (error) {
      await app.stop();
      throw error;
    }
    return app;
  };

  // The app first, so that nginx's first requests find it up.
  await launchApp();
  let nginx: Child | undefined;
  try {
    nginx = startNginx({ bin, runDir, config, forward: (line) => forward?.('nginx', line) });
    // Through nginx to the app: this also puts / in the cache.
    await waitForHttp(`${url}/`, { child: nginx, timeoutMs: 10_000 });
  } catch (error) {
    await Promise.all([app?.stop(), nginx?.stop()]);
    throw error;
  }
  await writeState();

  /** Keeps the app running until the stack stops: each exit is logged and followed by a restart. */
  const supervise = async () => {
    let delay = RESTART_DELAY.firstMs;
    while (!stopping) {
      const startedAt = Date.now();
      const { code, signal } = await app!.exited;
      if (stopping) return;
      if (Date.now() - startedAt > RESTART_DELAY.healthyAfterMs) delay = RESTART_DELAY.firstMs;
      log(`the app exited (${signal ?? `exit code ${code}`}); nginx serves the cached pages; starting it again in ${delay / 1000} s`);
      await sleep(delay);
      delay = Math.min(delay * 2, RESTART_DELAY.maxMs);
      if (stopping) return;
      try {
        await launchApp();
        await writeState();
        log(`the app is back (pid ${app?.pid})`);
      } catch (error) {
        log(`the app did not start: ${(error as Error).message}`);
      }
    }
  };
  void supervise();

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // nginx finishes the requests it has (SIGQUIT); Next finishes its own on SIGTERM.
    await Promise.all([nginx?.stop({ signal: 'SIGQUIT' }), app?.stop()]);
    await rm(path.join(runDir, STATE_FILE), { force: true });
  };

  /** Resolves when nginx exits: after stop(), or on its own (then the app is stopped too). */
  const ended = nginx.exited.then(async ({ code, signal }) => {
    if (stopping) return;
    log(`nginx exited (${signal ?? `exit code ${code}`}): stopping the app`);
    await stop();
    throw new StackError(`nginx exited unexpectedly:\n${nginx?.output().trim()}`);
  });

  return { url, appOrigin, runDir, config, stop, ended, appPid: () => app?.pid, nginxPid: nginx.pid };
}
