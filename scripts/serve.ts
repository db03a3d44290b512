#!/usr/bin/env node
/**
 * npm run serve — the site as the deployed shape serves it, without nginx in front: Next's standalone
 * server (output: 'standalone', the same server.js that serve:prod and deploy/ run), with the static
 * files copied into its folder as that shape requires (testkit/standalone.ts). `next start` would serve
 * the same build by another path, and warns that it does not work with output: 'standalone'.
 *
 * Builds when there is no build or the sources changed since (`--build`: always, `--no-build`: never),
 * prints what it serves, and stops the server on Ctrl-C or SIGTERM, exiting with the server's code.
 *
 *   PORT=3000              where it listens (on 127.0.0.1: the Studio edits only from this machine)
 *   DATA_DIR, CONTENT_FILE the embedded store and the dataset (defaults .data and seed/production.ndjson)
 * Relative paths are taken from the directory the command was typed in. .env, .env.local and
 * .env.production(.local) are read as `next start` reads them.
 */
import { serveCommand } from '../testkit/serve-command.ts';
import { buildPaths, ensureBuild, startApp } from '../testkit/standalone.ts';

const { log, fail, build, intSetting, env } = serveCommand('serve', process.argv.slice(2));
const port = intSetting('PORT', 3000, 65_535);

const paths = await ensureBuild(buildPaths(env.NEXT_DIST_DIR?.trim() || undefined), build, env, log).catch((error: Error) =>
  fail(error.message),
);
log(`store ${env.DATA_DIR}, content ${env.CONTENT_FILE}`);
const app = startApp({ paths, port, env, forward: (line) => console.log(line) });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void app.stop());
const { code, signal } = await app.exited;
process.exit(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1));
