#!/usr/bin/env node
/**
 * npm run serve:prod — the site as it is deployed, on 127.0.0.1: INSTANCES standalone Next servers behind
 * nginx, which caches the pages and serves the static files (testkit/stack.ts, docs/deploying.md).
 *
 * Builds when there is no build or a source changed since (`--build`: always, `--no-build`: never),
 * starts the app instances (with TRUSTED_PROXY_HOPS=1: nginx is their one proxy) and nginx, prints the
 * URL, and stops all on Ctrl-C or SIGTERM. A child that exits on its own stops the rest and exits 1:
 * restarting is the supervisor's job (systemd's Restart=on-failure in production). Needs nginx.
 *
 *   PORT=8080              where nginx listens (on 127.0.0.1)
 *   INSTANCES=1            how many app instances; more than one needs the Supabase variables (one
 *                          embedded store has one writer) and passes REDIS_URL on to each, when set
 *   STACK_DIR=.data/stack  nginx's config, cache, temp files and pid
 *   DATA_DIR, CONTENT_FILE as for npm run serve (defaults .data and seed/production.ndjson here)
 *   NGINX_BIN              the nginx binary (default: nginx on PATH, or in /usr/sbin)
 * Relative paths are taken from the directory the command was typed in. .env, .env.local and
 * .env.production(.local) are read as `next start` reads them.
 */
import path from 'node:path';

import nextEnv from '@next/env';

import { APP_ROOT, SEED_FILE } from '../testkit/paths.ts';
import { stopAllProcesses } from '../testkit/processes.ts';
import { StackError, startStack, type Stack } from '../testkit/stack.ts';

/** What instances need to share one store: the hosted backend (lib/env/public.ts; the key may go by its legacy name). */
const sharedStoreMissing = () =>
  [
    !process.env.NEXT_PUBLIC_SUPABASE_URL?.trim() && 'NEXT_PUBLIC_SUPABASE_URL',
    !(process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY || process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY)?.trim() &&
      'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY',
  ].filter((name) => typeof name === 'string');

const log = (line: string) => console.log(`[serve:prod] ${line}`);

function fail(message: string): never {
  console.error(`[serve:prod] ${message}`);
  process.exit(1);
}

function intSetting<T extends number | undefined>(name: string, fallback: T, max: number): number | T {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) fail(`${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  return value;
}

function buildMode(args: string[]) {
  const unknown = args.filter((arg) => arg !== '--build' && arg !== '--no-build');
  if (unknown.length || args.length > 1) fail(`usage: serve-prod.ts [--build | --no-build] (got ${args.join(' ')})`);
  return args[0] === '--build' ? 'always' : args[0] === '--no-build' ? 'never' : 'auto';
}

const build = buildMode(process.argv.slice(2));
// npm runs scripts in the package folder and keeps the directory the command was typed in as INIT_CWD.
const typedIn = process.env.INIT_CWD || process.cwd();
const resolve = (name: string, fallback: string) => path.resolve(typedIn, process.env[name]?.trim() || fallback);

nextEnv.loadEnvConfig(APP_ROOT, false, { info: () => {}, error: (...parts: unknown[]) => console.error(...parts) });
const port = intSetting('PORT', 8080, 65_535);
const instances = intSetting('INSTANCES', 1, 32);
const missing = sharedStoreMissing();
if (instances > 1 && missing.length) {
  fail(
    `INSTANCES=${instances} needs a store the instances share: set ${missing.join(' and ')} (a Supabase project). ` +
      'The embedded store (PGlite under DATA_DIR) takes one writer, so it serves one instance only.',
  );
}
const env: NodeJS.ProcessEnv = {
  ...process.env,
  // The standalone server changes into its own folder: it gets absolute paths.
  DATA_DIR: resolve('DATA_DIR', path.join(APP_ROOT, '.data')),
  CONTENT_FILE: resolve('CONTENT_FILE', SEED_FILE),
  // Canonical URLs are written into the build: a build made here names this stack's address.
  NEXT_PUBLIC_SITE_URL: process.env.NEXT_PUBLIC_SITE_URL || `http://127.0.0.1:${port}`,
};
const runDir = resolve('STACK_DIR', path.join(APP_ROOT, '.data', 'stack'));

let stack: Stack | undefined;
let stopping = false;
/** Stops what has started so far, then exits with `code`. */
function stopAndExit(reason: string, code: number) {
  if (stopping) return log('still stopping ...');
  stopping = true;
  log(`${reason}: stopping nginx and the app`);
  (stack ? stack.stop() : stopAllProcesses()).then(
    () => {
      log('stopped');
      process.exit(code);
    },
    (error: Error) => fail(`stopping failed: ${error.message}`),
  );
}
// Set before the stack starts: Ctrl-C while the apps start stops what has started so far.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stopAndExit(signal, stack ? 0 : 1));

try {
  stack = await startStack({ port, instances, runDir, env, build, log, forward: (name, line) => console.log(`[${name}] ${line}`) });
} catch (error) {
  if (stopping) await new Promise(() => {}); // the signal handler exits
  fail(error instanceof StackError ? error.message : ((error as Error).stack ?? String(error)));
}

for (const app of stack.apps) log(`${app.name} ${app.origin} pid ${app.pid}`);
log(`nginx pid ${stack.nginx.pid}; store ${missing.length ? env.DATA_DIR : env.NEXT_PUBLIC_SUPABASE_URL}, content ${env.CONTENT_FILE}`);
// Not the URL itself: it may hold a password.
log(`nginx files in ${runDir}${env.REDIS_URL ? '; each instance gets REDIS_URL' : ''}; Ctrl-C stops all`);
log(`ready: ${stack.url}`);
void stack.died.then((death) => {
  if (death)
    stopAndExit(`${death.name} exited (${death.exit.signal ?? `exit code ${death.exit.code}`}); restarting it is the supervisor's job`, 1);
});
