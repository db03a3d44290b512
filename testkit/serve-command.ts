/**
 * What `npm run serve` (scripts/serve.ts) and `npm run serve:prod` (scripts/serve-prod.ts) share: their
 * children tied to them (testkit/processes.ts), the build mode from their arguments, whole-number
 * settings, the .env files as `next start` reads them, and DATA_DIR and CONTENT_FILE as absolute paths,
 * since the standalone server changes into its own folder. Relative paths are taken from the directory
 * the command was typed in.
 */
import path from 'node:path';

import nextEnv from '@next/env';

import { APP_ROOT, SEED_FILE } from './paths.ts';
import { tieChildrenToThisProcess } from './processes.ts';
import type { BuildMode } from './standalone.ts';

/** The command's printing, its settings and the environment its servers get; `name` prefixes each line. */
export function serveCommand(name: string, args: string[]) {
  // What the command starts (the build, the servers, nginx) ends with it, however it ends.
  tieChildrenToThisProcess();
  const log = (line: string) => console.log(`[${name}] ${line}`);
  const fail = (message: string): never => {
    console.error(`[${name}] ${message}`);
    process.exit(1);
  };

  const unknown = args.filter((arg) => arg !== '--build' && arg !== '--no-build');
  if (unknown.length || args.length > 1) fail(`usage: ${name} [--build | --no-build] (got ${args.join(' ')})`);
  const build: BuildMode = args[0] === '--build' ? 'always' : args[0] === '--no-build' ? 'never' : 'auto';

  /** A whole number from 1 to `max` in variable `variable`, or `fallback` when unset. */
  function intSetting<T extends number | undefined>(variable: string, fallback: T, max: number): number | T {
    const raw = process.env[variable]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > max) fail(`${variable} must be a whole number from 1 to ${max}, got "${raw}"`);
    return value;
  }

  // npm runs scripts in the package folder and keeps the directory the command was typed in as INIT_CWD.
  const typedIn = process.env.INIT_CWD || process.cwd();
  const resolve = (variable: string, fallback: string) => path.resolve(typedIn, process.env[variable]?.trim() || fallback);

  nextEnv.loadEnvConfig(APP_ROOT, false, { info: () => {}, error: (...parts: unknown[]) => console.error(...parts) });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: resolve('DATA_DIR', path.join(APP_ROOT, '.data')),
    CONTENT_FILE: resolve('CONTENT_FILE', SEED_FILE),
  };
  return { log, fail, build, intSetting, resolve, env };
}
