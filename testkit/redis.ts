/**
 * A real redis-server (Debian's package; REDIS_SERVER_BIN for another, Valkey's included) for a test
 * or a script: its own free port on 127.0.0.1 and its own temporary directory, no persistence, stopped
 * and removed by stop() (and killed if the test process exits first). freeze()/thaw() stop and resume
 * it with SIGSTOP/SIGCONT: connections stay open and nothing answers, as with a hung server.
 *
 * Only relative imports with real extensions and packages: plain `node` scripts may import this file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { withoutFakeClock } from './fake-clock.ts';
import { freePort } from './processes.ts';

export type RedisServer = {
  url: string;
  port: number;
  /** Stops the server; its port stays free for start() to take again. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (after stop()). */
  start(): Promise<void>;
  freeze(): void;
  thaw(): void;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
};

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function redisBinary(): string {
  const bin = process.env.REDIS_SERVER_BIN || (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server');
  return bin;
}

/** Resolves once something on `port` answers PING with PONG. */
async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

function launch(port: number, dir: string): { child: ChildProcess; output: () => string } {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--logfile', ''];
  // Not under libfaketime's preload, in which redis-server does not start (a run with its clock moved ahead):
  // the product gives Redis only relative lifetimes (EX, PX), so its clock need not agree with the servers'.
  const child = spawn(redisBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'], env: withoutFakeClock(process.env) });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  return { child, output: () => output };
}

export async function startRedis(): Promise<RedisServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'redis-test-'));
  const port = await freePort();
  let child: ChildProcess | null = null;

  async function start(): Promise<void> {
    const launched = launch(port, dir);
    child = launched.child;
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`redis-server did not start on port ${port}:\n${launched.output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // A frozen server would ignore SIGTERM until resumed.
    running.kill('SIGCONT');
    running.kill('SIGTERM');
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
