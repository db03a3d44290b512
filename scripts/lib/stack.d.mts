// Types of stack.mjs for the TypeScript files that read a running stack's state file (tests/e2e/stack.spec.ts).

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
