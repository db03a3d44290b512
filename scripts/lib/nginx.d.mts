// Types of nginx.mjs for the TypeScript files that import it (scripts/lib/nginx.test.ts).
import type { Child } from './processes.mjs';

export declare const TEMPLATE_FILE: string;
export declare const INSTALL_HINT: string;
export declare function findNginx(env?: NodeJS.ProcessEnv): string | null;
export declare function brotliModules(bin: string): { filter: string | null; static: string | null };
export declare function brotliBlocks(modules: { filter: string | null; static: string | null }): {
  LOAD_MODULES: string;
  BROTLI: string;
  BROTLI_STATIC: string;
};
export declare function renderConfig(template: string, values: Record<string, string>): string;
export declare function writeConfig(options: {
  bin: string;
  runDir: string;
  listen: string;
  appPort: number;
  staticDir: string;
  refreshSecret: string;
}): Promise<string>;
export declare function startNginx(options: { bin: string; runDir: string; config: string; forward?: (line: string) => void }): Child;
