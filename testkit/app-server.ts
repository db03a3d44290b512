import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from './processes.ts';

/**
 * A production server of the existing build (`next start` on NEXT_DIST_DIR, default .next) with the
 * environment a test or script gives it, on a free loopback port: for faults the shared browser-test
 * server cannot have (a hosted backend that hangs, a second server, a SIGKILL, a broken setting).
 *
 * Only relative imports with real extensions and packages: scripts/load.mjs imports this file with plain `node`.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
/** Lines of output kept per server: enough for a failure report, bounded for a long load run. */
const OUTPUT_LINES = 400;

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type AppServer = {
  origin: string;
  /** The server process (it holds the embedded store's lock). */
  pid: number;
  /** What the server printed (stdout and stderr, newest OUTPUT_LINES lines). */
  output(): string;
  exited: Promise<Exit>;
  running(): boolean;
  /** SIGTERM, then SIGKILL if it is still there after 10 s. */
  stop(): Promise<Exit>;
  /** SIGKILL, as a crash or the OOM killer would: no shutdown code runs. */
  kill(): Promise<Exit>;
};

/** Every server started here, so one a failing test or an interrupted script leaves behind is killed at exit. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a server and returns at once (it may still fail its start: see `exited`). */
export async function launchAppServer(env: Record<string, string>, options: { port?: number } = {}): Promise<AppServer> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || '.next',
      NEXT_TELEMETRY_DISABLED: '1',
      CONTENT_FILE: path.join(ROOT, 'seed', 'production.ndjson'),
      RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_SITE_MAX: '1000000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > OUTPUT_LINES) lines.splice(0, lines.length - OUTPUT_LINES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    output: () => lines.join('\n'),
    exited,
    running,
    async stop() {
      if (running()) child.kill('SIGTERM');
      const done = await Promise.race([exited, sleep(10_000).then(() => null)]);
      if (done) return done;
      child.kill('SIGKILL');
      return exited;
    },
    async kill() {
      if (running()) child.kill('SIGKILL');
      return exited;
    },
  };
}

/** Starts a server and resolves once GET / answers 200; throws with its output if it exits or takes over `timeoutMs`. */
export async function startAppServer(env: Record<string, string>, options: { port?: number; timeoutMs?: number } = {}): Promise<AppServer> {
  const server = await launchAppServer(env, options);
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (!server.running()) throw new Error(`the server exited during its start:\n${server.output()}`);
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`the server did not answer within ${options.timeoutMs ?? 120_000} ms:\n${server.output()}`);
    }
    if (
      await fetch(`${server.origin}/`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return server;
    await sleep(200);
  }
}
