// Types of node-version.mjs for the TypeScript files that import it.

export declare const REQUIRED_NODE: string;
export declare function satisfies(version: string, range?: string): boolean;
export declare function nodeVersionProblem(version?: string): string | undefined;
export declare function requireNodeVersion(): void;
