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

import { APP_ROOT } from '../testkit/paths.ts';
import { stopAllProcesses } from '../testkit/processes.ts';
import { serveCommand } from '../testkit/serve-command.ts';
import { StackError, startStack, type Stack } from '../testkit/stack.ts';

/** What instances need to share one store: the hosted backend (lib/env/public.ts; the key may go by its legacy name). */
const sharedStoreMissing = () =>
  [
    !process.env.NEXT_PUBLIC_SUPABASE_URL?.trim() && 'NEXT_PUBLIC_SUPABASE_URL',
    !(process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY || process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY)?.trim() &&
      'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY',
  ].filter((name) => typeof name === 'string');

const command = serveCommand('serve:prod', process.argv.slice(2));
const { log, build, intSetting, resolve, env: served } = command;
// Declared with its type: TypeScript narrows after a call to a never-returning function only then.
const fail: (message: string) => never = command.fail;
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
  ...served,
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
