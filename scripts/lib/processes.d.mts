// Types of processes.mjs for the TypeScript files that import it (the stack's tests).

type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type Child = {
  name: string;
  pid: number | undefined;
  exited: Promise<Exit>;
  running(): boolean;
  output(): string;
  signal(signal: NodeJS.Signals): void;
  stop(options?: { signal?: NodeJS.Signals; graceMs?: number }): Promise<Exit>;
};

export declare const sleep: (ms: number) => Promise<void>;
export declare function freePort(): Promise<number>;
export declare function stopAllProcesses(): Promise<void>;
export declare function startProcess(
  name: string,
  command: string,
  args: string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; forward?: (line: string) => void },
): Child;
export declare function waitForHttp(
  url: string,
  options?: { child?: Pick<Child, 'name' | 'running' | 'output'>; timeoutMs?: number; ready?: () => boolean },
): Promise<void>;
export declare function memory(pid: number): { rssBytes: number; peakRssBytes: number };
export declare function treeRss(rootPid: number): { total: number; largest: number };
