#!/usr/bin/env node
/**
 * npm run serve:prod — the site as it is deployed, on 127.0.0.1: the standalone Next server behind
 * nginx, which caches the pages and serves the static files (deploy/, docs/deploying.md "Deploying it").
 *
 * Builds when there is no build or a source changed since (`--build`: always, `--no-build`: never),
 * starts the app (with TRUSTED_PROXY_HOPS=1: nginx is its one proxy) and nginx, prints the URL, starts
 * the app again if it exits, and stops both on Ctrl-C or SIGTERM. Needs nginx (apt-get install nginx).
 *
 *   PORT=8080              where nginx listens (on 127.0.0.1)
 *   APP_PORT               the app's port on 127.0.0.1 (default: a free one)
 *   STACK_DIR=.data/stack  nginx's config, cache, temp files and pid, and stack.json (URLs, process ids)
 *   DATA_DIR, CONTENT_FILE as for npm run serve (defaults .data and seed/production.ndjson here)
 *   NGINX_BIN              the nginx binary (default: nginx on PATH, or in /usr/sbin)
 * Relative paths are taken from the directory the command was typed in. .env, .env.local and
 * .env.production(.local) are read as `next start` reads them.
 */
import path from 'node:path';

import nextEnv from '@next/env';

import { APP_ROOT } from '../lib/app-root.mjs';
import { stopAllProcesses } from '../testkit/processes.ts';
import { StackError, startStack } from '../testkit/stack.ts';

const log = (line: string) => console.log(`[serve:prod] ${line}`);

function fail(message: string): never {
  console.error(`[serve:prod] ${message}`);
  process.exit(1);
}

function portSetting<T extends number | undefined>(name: string, fallback: T): number | T {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) fail(`${name} must be a port number (1-65535), got "${raw}"`);
  return port;
}

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--build' && arg !== '--no-build');
if (unknown.length || args.length > 1) fail(`usage: serve-prod.ts [--build | --no-build] (got ${args.join(' ')})`);
const build = args[0] === '--build' ? 'always' : args[0] === '--no-build' ? 'never' : 'auto';

// npm runs scripts in the package folder and keeps the directory the command was typed in as INIT_CWD.
const typedIn = process.env.INIT_CWD || process.cwd();
const resolve = (name: string, fallback: string) => path.resolve(typedIn, process.env[name]?.trim() || fallback);

nextEnv.loadEnvConfig(APP_ROOT, false, { info: () => {}, error: (...parts: unknown[]) => console.error(...parts) });
const env: NodeJS.ProcessEnv = {
  ...process.env,
  // The standalone server changes into its own folder: it gets absolute paths.
  DATA_DIR: resolve('DATA_DIR', path.join(APP_ROOT, '.data')),
  CONTENT_FILE: resolve('CONTENT_FILE', path.join(APP_ROOT, 'seed', 'production.ndjson')),
};
const port = portSetting('PORT', 8080);
const appPort = portSetting('APP_PORT', undefined);
const runDir = resolve('STACK_DIR', path.join(APP_ROOT, '.data', 'stack'));
// Canonical URLs are written into the build: a build made here names this stack's address.
env.NEXT_PUBLIC_SITE_URL ||= `http://127.0.0.1:${port}`;

let stack: Awaited<ReturnType<typeof startStack>> | undefined;
let stopping = false;
// Set before the stack starts: Ctrl-C while the app starts stops what has started so far.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) return log('still stopping ...');
    stopping = true;
    log(`${signal}: stopping nginx and the app`);
    (stack ? stack.stop() : stopAllProcesses()).then(
      () => {
        log('stopped');
        process.exit(stack ? 0 : 1);
      },
      (error: Error) => fail(`stopping failed: ${error.message}`),
    );
  });
}

try {
  stack = await startStack({
    port,
    appPort,
    runDir,
    env,
    build,
    log,
    forward: (name, line) => console.log(`[${name}] ${line}`),
  });
} catch (error) {
  if (stopping) await new Promise(() => {}); // the signal handler exits
  fail(error instanceof StackError ? error.message : ((error as Error).stack ?? String(error)));
}

log(`${stack.url} — nginx (cache, static files) in front of the app at ${stack.appOrigin} (pid ${stack.appPid()})`);
log(`store ${env.DATA_DIR}, content ${env.CONTENT_FILE}, nginx files in ${runDir}; Ctrl-C stops both`);
stack.ended.catch((error: Error) => fail(error.message));
