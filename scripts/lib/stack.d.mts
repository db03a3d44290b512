// Types of stack.mjs for the TypeScript files that import it (tests/e2e/stack.spec.ts reads the state file).

export declare const STATE_FILE: string;

/** What stack.json in the run directory holds while the stack runs (rewritten when the app restarts). */
export type StackState = {
  /** nginx's address: the site. */
  url: string;
  /** serve:prod's own process. */
  pid: number;
  app: { origin: string; pid?: number };
  nginx: { pid?: number };
  runDir: string;
};

export declare class StackError extends Error {}

export type Stack = {
  url: string;
  appOrigin: string;
  runDir: string;
  config: string;
  stop(): Promise<void>;
  /** Resolves when nginx exits after stop(); rejects when it exits on its own. */
  ended: Promise<void>;
  appPid(): number | undefined;
  nginxPid: number | undefined;
};

export declare function startStack(options: {
  port: number;
  appPort?: number;
  runDir: string;
  env: NodeJS.ProcessEnv;
  build?: 'auto' | 'never' | 'always';
  log: (line: string) => void;
  forward?: (name: string, line: string) => void;
  /** The build to serve (standalone.mjs's buildPaths; default: NEXT_DIST_DIR's). */
  paths?: { dist: string; standalone: string; buildId: string; server: string; staticSource: string; staticDir: string };
}): Promise<Stack>;
