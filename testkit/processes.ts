/**
 * Child processes, ports, waiting and memory: the one way the stack (serve:prod), the app servers, the
 * measuring scripts and the tests start, wait for and stop what they run.
 *
 * For the tests and measurements, each child runs in its own process group: a stop reaches everything
 * it started (nginx's workers, Next's build workers). A child still running when this process exits (a
 * failed test, an interrupted script) is killed with it.
 *
 * The commands a person or a supervisor runs (npm start, serve, serve:prod) tie their children to
 * themselves instead (tieChildrenToThisProcess): a child stays in the command's process group, so a kill
 * of that group (Ctrl-C, kill -9 of the group, a supervisor's stop) ends it too, and a Node child also
 * ends when the command alone is killed with SIGKILL (exit-with-parent.mjs). No server outlives the
 * command that started it, holding its port and its store's lock (docs/operations.md).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

import { PARENT_PIPE } from './exit-with-parent.mjs';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Ports this process handed out: never the same one twice, even after its child let it go. */
const handedOut = new Set<number>();
/**
 * Below Linux's ephemeral range (32768-60999): a port the OS picks (listen on 0) can be taken by any
 * outgoing connection between the pick and the child's own bind, which CI saw as PostgREST's
 * "resource busy (Address in use)". No connection is given a port from this range on its own.
 */
const PORT_RANGE = { first: 20_000, count: 12_000 };
/**
 * Playwright's workers run side by side (TEST_PARALLEL_INDEX 0, 1, …): each picks from a part of the range
 * of its own, so two never pick the same port between one's check and its child's bind.
 */
const WORKER_SLOTS = 4;
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % WORKER_SLOTS;
const PORTS = { first: PORT_RANGE.first + (slot * PORT_RANGE.count) / WORKER_SLOTS, count: PORT_RANGE.count / WORKER_SLOTS };

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port on 127.0.0.1 that nothing listens on right now and that this process has not handed out. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const port = PORTS.first + Math.floor(Math.random() * PORTS.count);
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port from ${PORTS.first} to ${PORTS.first + PORTS.count - 1} in 1000 tries`);
}

/** How much of a child's output is kept for error messages and tests that read its log. */
const OUTPUT_TAIL = 64_000;

export type Exit = { code: number | null; signal: NodeJS.Signals | null };
type StartOptions = { cwd?: string; env?: NodeJS.ProcessEnv; forward?: (line: string) => void };

/** Whether children get process groups of their own (tests, measurements) or stay in this process's (commands). */
let ownGroups = true;
/** Loaded first by a tied Node child: it ends when the pipe from this process closes, however this process died. */
const EXIT_WITH_PARENT = fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url));

/** For a command's main, before it starts anything: its children end with it (see the top of this file). */
export function tieChildrenToThisProcess(): void {
  ownGroups = false;
}

/** Every child started and not yet exited, for stopAllProcesses. */
const live = new Set<Child>();
let closed = false;
process.once('exit', () => {
  for (const child of live) child.signal('SIGKILL');
});

/** Stops every child this process started (on Ctrl-C or an error); no child starts afterwards. */
export async function stopAllProcesses(): Promise<void> {
  closed = true;
  await Promise.all([...live].map((child) => child.stop()));
}

/** Ctrl-C and SIGTERM stop every child, run `cleanup`, then exit 130: for a script's main. */
export function stopOnSignals(cleanup: () => Promise<unknown> = async () => {}): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(
      signal,
      () =>
        void stopAllProcesses()
          .then(cleanup)
          .finally(() => process.exit(130)),
    );
  }
}

/** A group of its own, or (tied) this process's, with a Node child watching the pipe from this process. */
function spawnChild(command: string, args: string[], { cwd, env, group }: { cwd?: string; env?: NodeJS.ProcessEnv; group: boolean }) {
  const watchesParent = !group && command === process.execPath;
  return spawn(command, watchesParent ? ['--import', EXIT_WITH_PARENT, ...args] : args, {
    cwd,
    env: watchesParent ? { ...(env ?? process.env), [PARENT_PIPE]: '1' } : env,
    detached: group,
    stdio: [watchesParent ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
}

/**
 * Starts `command`, in its own process group unless children are tied to this process. `forward` receives
 * each line of its output (to print it with a prefix); the last 64 KB are kept for error messages either way.
 */
export function startProcess(name: string, command: string, args: string[], { cwd, env, forward }: StartOptions = {}) {
  if (closed) throw new Error(`not starting ${name}: stopping`);
  const group = ownGroups;
  const child = spawnChild(command, args, { cwd, env, group });
  let tail = '';
  const pending = { stdout: '', stderr: '' };
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.setEncoding('utf8');
    child[stream]!.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-OUTPUT_TAIL);
      if (!forward) return;
      const lines = (pending[stream] + chunk).split('\n');
      pending[stream] = lines.pop() ?? '';
      for (const line of lines) forward(line);
    });
  }
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (error) => {
      tail += `\n${error.message}`;
      resolve({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const running = () => child.exitCode === null && child.signalCode === null && child.pid !== undefined;
  /** To the child's whole group when it has one of its own, else to the child. */
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(group ? -child.pid! : child.pid!, signal);
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
    /** SIGKILL, as a crash or the OOM killer would: no shutdown code runs. */
    kill: () => (signalGroup('SIGKILL'), exited),
    /**
     * Stops it: `signal` first (a process stopped with SIGSTOP is continued so that it
     * can act on it), SIGKILL after `graceMs`. Resolves once the leader has exited.
     */
    async stop({ signal = 'SIGTERM', graceMs = 10_000 }: { signal?: NodeJS.Signals; graceMs?: number } = {}): Promise<Exit> {
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

export type Child = ReturnType<typeof startProcess>;

type WaitOptions = { child?: Pick<Child, 'name' | 'running' | 'output'>; timeoutMs?: number; ready?: () => boolean };

/**
 * Polls `url` until it answers below 500, failing early when `child` exits and after `timeoutMs`.
 * `ready()` must hold too: an answer alone may come from another server that had the port first.
 */
export async function waitForHttp(url: string, { child, timeoutMs = 60_000, ready = () => true }: WaitOptions = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && !child.running()) throw new Error(`${child.name} exited before answering ${url}:\n${child.output().trim()}`);
    if (ready()) {
      // Not listening yet, or too slow to answer: 599.
      const status = await fetch(url, { signal: AbortSignal.timeout(5000) })
        .then(async (response) => (await response.arrayBuffer(), response.status))
        .catch(() => 599);
      if (status < 500) return;
    }
    await sleep(200);
  }
  throw new Error(`${child?.name ?? url} did not answer ${url} within ${timeoutMs / 1000} s:\n${child?.output().trim() ?? ''}`);
}

/** Resident memory of one process now and at its peak, in bytes (Linux /proc). */
export function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rssBytes: kib('VmRSS'), peakRssBytes: kib('VmHWM') };
}

/** The kernel's clock ticks per second, the unit of the CPU times in /proc/<pid>/stat. */
export const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds process `pid` has used so far, all its threads, user and system (utime + stime). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after "(comm)": state is field 3 overall; utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[14 - 3]) + Number(fields[15 - 3])) / TICKS_PER_SECOND;
}

/**
 * Every process's parent, resident bytes (Linux /proc: stat counts pages, 4 KiB on x86-64 and arm64
 * Debian) and CPU seconds: its own and its reaped children's (a Postgres backend that exited is counted
 * in its postmaster's).
 */
function processTable() {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after "(comm)": state ppid ...; utime stime cutime cstime are fields 14-17 overall, rss 24.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      rss.set(Number(name), Number(fields[21]) * 4096);
      cpu.set(Number(name), fields.slice(14 - 3, 18 - 3).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS_PER_SECOND);
    } catch {
      // The process ended while we looked.
    }
  }
  return { parent, rss, cpu };
}

/** `rootPid` and all its descendants now, with the process table they were found in. */
function processTree(rootPid: number) {
  const table = processTable();
  const tree = new Set<number>();
  const queue = [rootPid];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    if (tree.has(pid)) continue;
    tree.add(pid);
    for (const [child, ppid] of table.parent) if (ppid === pid) queue.push(child);
  }
  return { ...table, tree: [...tree] };
}

/** Resident memory of a process and all its descendants, in bytes: the sum and the largest one. */
export function treeRss(rootPid: number) {
  const { rss, tree } = processTree(rootPid);
  const sizes = tree.map((pid) => rss.get(pid) ?? 0);
  return { total: sizes.reduce((sum, size) => sum + size, 0), largest: Math.max(0, ...sizes) };
}

/** CPU seconds used so far by a process and all its descendants, those that exited included. */
export function treeCpuSeconds(rootPid: number): number {
  const { cpu, tree } = processTree(rootPid);
  return tree.reduce((sum, pid) => sum + (cpu.get(pid) ?? 0), 0);
}
