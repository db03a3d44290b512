// Types of exit-with-parent.mjs for testkit/processes.ts, which names its variable.
export declare const PARENT_PIPE: string;
