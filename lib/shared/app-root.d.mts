// Types of app-root.mjs for the TypeScript files that import it.

export declare const APP_ROOT: string;
export declare function appPath(...segments: string[]): string;
