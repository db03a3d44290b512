/**
 * Child processes, ports and memory for the scripts (serve:prod, the bench, the stack's tests).
 *
 * Each child runs in its own process group: a stop reaches everything it started (nginx's workers),
 * and Ctrl-C in a terminal reaches only the script, which then stops its children in its own order.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port on 127.0.0.1 that nothing listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** How much of a child's output is kept for error messages. */
const OUTPUT_TAIL = 20_000;

/** Every child started and not yet exited, for stopAllProcesses. */
const live = new Set();
let closed = false;

/**
 * Stops every child this process started (on Ctrl-C before a script has its own handles on them);
 * no child starts afterwards.
 */
export async function stopAllProcesses() {
  closed = true;
  await Promise.all([...live].map((child) => child.stop()));
}

/**
 * Starts `command` in its own process group. `forward` receives each line of its output (to print it
 * with a prefix); the last 20 KB are kept for error messages either way.
 *
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, forward?: (line: string) => void }} [options]
 */
export function startProcess(name, command, args, { cwd, env, forward } = {}) {
  if (closed) throw new Error(`not starting ${name}: stopping`);
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const pending = { stdout: '', stderr: '' };
  for (const stream of /** @type {const} */ (['stdout', 'stderr'])) {
    child[stream].setEncoding('utf8');
    child[stream].on('data', (chunk) => {
      tail = (tail + chunk).slice(-OUTPUT_TAIL);
      if (!forward) return;
      const lines = (pending[stream] + chunk).split('\n');
      pending[stream] = lines.pop() ?? '';
      for (const line of lines) forward(line);
    });
  }
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exited = new Promise((resolve) => {
    child.once('error', (error) => {
      tail += `\n${error.message}`;
      resolve({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const running = () => child.exitCode === null && child.signalCode === null && child.pid !== undefined;
  const signalGroup = (signal) => {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), signal);
    } catch {
      // Already gone.
    }
  };

  const handle = {
    name,
    pid: child.pid,
    exited,
    running,
    output: () => tail,
    signal: signalGroup,
    /**
     * Stops the whole group: `signal` first (a process stopped with SIGSTOP is continued so that it
     * can act on it), SIGKILL after `graceMs`. Resolves once the leader has exited.
     */
    async stop({ signal = /** @type {NodeJS.Signals} */ ('SIGTERM'), graceMs = 10_000 } = {}) {
      if (!running()) return exited;
      signalGroup(signal);
      signalGroup('SIGCONT');
      const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  live.add(handle);
  void exited.then(() => live.delete(handle));
  return handle;
}

/** @typedef {ReturnType<typeof startProcess>} Child */

/**
 * Polls `url` until it answers below 500, failing early when `child` exits and after `timeoutMs`.
 * `ready()` must hold too: an answer alone may come from another server that had the port first.
 *
 * @param {string} url
 * @param {{ child?: Pick<Child, 'name' | 'running' | 'output'>, timeoutMs?: number, ready?: () => boolean }} [options]
 */
export async function waitForHttp(url, { child, timeoutMs = 60_000, ready = () => true } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && !child.running()) {
      throw new Error(`${child.name} exited before answering ${url}:\n${child.output().trim()}`);
    }
    if (!ready()) {
      await sleep(100);
      continue;
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(`${child?.name ?? url} did not answer ${url} within ${timeoutMs / 1000} s:\n${child?.output().trim() ?? ''}`);
}

/** Resident memory of one process now and at its peak, in bytes (Linux /proc). */
export function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rssBytes: kib('VmRSS'), peakRssBytes: kib('VmHWM') };
}

const PAGE_SIZE = (() => {
  try {
    return Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096;
  } catch {
    return 4096;
  }
})();

/** Resident memory of a process and all its descendants, in bytes (Linux /proc): the sum and the largest one. */
export function treeRss(rootPid) {
  const parent = new Map();
  const rss = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after "(comm)": state ppid ... rss is field 24 overall, index 21 here.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      rss.set(Number(name), Number(fields[21]) * PAGE_SIZE);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  let largest = 0;
  const queue = [rootPid];
  const seen = new Set();
  while (queue.length) {
    const pid = queue.pop();
    if (seen.has(pid)) continue;
    seen.add(pid);
    total += rss.get(pid) ?? 0;
    largest = Math.max(largest, rss.get(pid) ?? 0);
    for (const [child, ppid] of parent) if (ppid === pid) queue.push(child);
  }
  return { total, largest };
}
