import { ownBuild } from './own-build.ts';
import { NEXT_BIN, SEED_FILE, APP_ROOT } from './paths.ts';
import { freePort, startProcess, waitForHttp, type Exit } from './processes.ts';

/**
 * A production server of an existing build (`next start` on NEXT_DIST_DIR, default .next) with the
 * environment a test or script gives it, on a free loopback port: for faults the shared browser-test
 * server cannot have (a hosted backend that hangs, a second server, a SIGKILL, a broken setting), and
 * for the measuring scripts (`dir`: another app, such as bench/fixture).
 *
 * Only relative imports with real extensions and packages: the bench scripts (bench/) import this file with plain `node`.
 */

export type { Exit };

export type AppServer = {
  origin: string;
  /** The server process (it holds the embedded store's lock). */
  pid: number;
  /** What the server printed (stdout and stderr, the newest 64 KB). */
  output(): string;
  exited: Promise<Exit>;
  running(): boolean;
  /** SIGTERM, then SIGKILL if it is still there after 10 s. */
  stop(): Promise<Exit>;
  /** SIGKILL, as a crash or the OOM killer would: no shutdown code runs. */
  kill(): Promise<Exit>;
};

/** `onLine`: each line the server prints, as it prints it (output() keeps only the newest 64 KB). */
type Options = { port?: number; dir?: string; timeoutMs?: number; onLine?: (line: string) => void };

/**
 * Starts a server and returns at once (it may still fail its start: see `exited`). On the app's own build,
 * unless `env` names one, it runs on a copy of its own (ownBuild).
 */
export async function launchAppServer(env: Record<string, string>, { port, dir = APP_ROOT, onLine }: Options = {}): Promise<AppServer> {
  const listen = port ?? (await freePort());
  const build = env.NEXT_DIST_DIR === undefined && dir === APP_ROOT ? await ownBuild() : undefined;
  const child = startProcess(`next start on ${listen}`, process.execPath, [NEXT_BIN, 'start', '-p', String(listen), '-H', '127.0.0.1'], {
    cwd: dir,
    env: {
      ...process.env,
      NEXT_DIST_DIR: build?.distDir ?? (process.env.NEXT_DIST_DIR || '.next'),
      NEXT_TELEMETRY_DISABLED: '1',
      CONTENT_FILE: SEED_FILE,
      RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_SITE_MAX: '1000000000',
      ...env,
      NODE_ENV: 'production',
    },
    forward: onLine,
  });
  // Its copy is gone by the time anyone learns it exited.
  const exited = child.exited.then(async (exit) => (await build?.remove(), exit));
  return {
    origin: `http://127.0.0.1:${listen}`,
    pid: child.pid!,
    output: child.output,
    exited,
    running: child.running,
    stop: () => child.stop().then(() => exited),
    kill: () => child.kill().then(() => exited),
  };
}

/**
 * Starts a server and resolves once it says it is ready and GET / answers; throws with its output if
 * it exits or takes over `timeoutMs` (default 120 s).
 */
export async function startAppServer(env: Record<string, string>, options: Options = {}): Promise<AppServer> {
  const server = await launchAppServer(env, options);
  try {
    // "Ready" in its own log too: an answer alone may come from another server that had the port first.
    await waitForHttp(`${server.origin}/`, {
      child: { name: 'the server', running: () => server.running(), output: () => server.output() },
      timeoutMs: options.timeoutMs ?? 120_000,
      ready: () => /\bReady in\b/.test(server.output()),
    });
  } catch (error) {
    await server.kill();
    throw error;
  }
  return server;
}
