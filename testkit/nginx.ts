/**
 * nginx for the stack (serve:prod, the tests, the bench): Debian's binary and brotli modules found,
 * deploy/nginx.conf.template filled in and checked with `nginx -t`, then run in the foreground as the
 * current user under a run directory. An operator fills in the same template by hand (docs/deploying.md).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { withoutFakeClock } from './fake-clock.ts';
import { APP_ROOT } from './paths.ts';
import { startProcess } from './processes.ts';

export const TEMPLATE_FILE = path.join(APP_ROOT, 'deploy', 'nginx.conf.template');

export const INSTALL_HINT =
  'install it with: apt-get install nginx libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static (or set NGINX_BIN)';

/** Where Debian and source builds put the binary; a non-root PATH often lacks the sbin directories. */
const SEARCH_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'];

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The nginx binary: NGINX_BIN when set (it must exist), else the first on PATH or in the sbin directories. */
export function findNginx(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.NGINX_BIN) return executable(env.NGINX_BIN) ? env.NGINX_BIN : null;
  const dirs = [...(env.PATH ?? '').split(path.delimiter).filter(Boolean), ...SEARCH_DIRS];
  return dirs.map((dir) => path.join(dir, 'nginx')).find(executable) ?? null;
}

/** The brotli filter (on-the-fly) and static (precompressed files) modules of this nginx, when installed. */
export function brotliModules(bin: string) {
  // `nginx -V` prints its configure arguments on stderr; Debian's name the modules directory.
  const { stderr } = spawnSync(bin, ['-V'], { encoding: 'utf8' });
  const dir = /--modules-path=(\S+)/.exec(stderr ?? '')?.[1] ?? '/usr/lib/nginx/modules';
  const find = (name: string) => {
    const file = path.join(dir, `ngx_http_brotli_${name}_module.so`);
    return existsSync(file) ? file : null;
  };
  return { filter: find('filter'), static: find('static') };
}

const BROTLI_TYPES =
  'text/css text/javascript application/javascript application/json image/svg+xml text/plain text/xml application/xml text/x-component';

/**
 * The line of the template's $enc map for an encoding: the client accepts it when Accept-Encoding
 * names it without q=0 (any other q counts as yes: only one encoding per client is kept).
 */
const acceptsLine = (encoding: 'br' | 'gzip') =>
  `        "~*(^|,)\\s*${encoding}\\s*(;\\s*q=(1|0\\.\\d*[1-9])[^,]*)?\\s*(,|$)" ${encoding};`;

/** What goes in place of the template's module and brotli placeholders. */
export function brotliBlocks(modules: { filter: string | null; static: string | null }) {
  const load = [modules.filter, modules.static].filter(Boolean).map((file) => `load_module "${file}";`);
  return {
    ENCODINGS: [...(modules.filter ? [acceptsLine('br')] : []), acceptsLine('gzip')].join('\n'),
    // The highest level for the pages the cache keeps (the template says why; gzip's is there).
    BROTLI_ONCE: modules.filter ? '        brotli_comp_level 11;' : '        # brotli: module not installed',
    CACHED_BROTLI_OFF: modules.filter ? '            brotli off;' : '            # brotli: module not installed',
    LOAD_MODULES: load.join('\n') || '# brotli: module not installed, gzip only',
    BROTLI: modules.filter
      ? ['    brotli on;', '    brotli_comp_level 5;', '    brotli_min_length 256;', `    brotli_types ${BROTLI_TYPES};`].join('\n')
      : '    # brotli: module not installed',
    BROTLI_STATIC: modules.static ? '            brotli_static on;' : '            # brotli_static: module not installed',
  };
}

// A value that could end a directive or open a block would let a path rewrite the config.
const UNSAFE = /["'\\$;{}\r\n]/;

/**
 * The template with every {{NAME}} replaced. Throws on a placeholder without a value, a value without
 * a placeholder, and a value that could break out of its directive.
 */
export function renderConfig(template: string, values: Record<string, string>): string {
  const used = new Set<string>();
  const text = template.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`nginx template: no value for {{${name}}}`);
    used.add(name);
    return value;
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length) throw new Error(`nginx template: no placeholder for ${unused.join(', ')}`);
  return text;
}

/** The `server` lines of the one upstream: every app instance, each on its loopback port. */
export function upstreamServers(appPorts: readonly number[]): string {
  if (appPorts.length === 0) throw new Error('nginx: the upstream needs at least one app instance');
  for (const port of appPorts) if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`nginx: not a port: ${port}`);
  return appPorts.map((port) => `        server 127.0.0.1:${port};`).join('\n');
}

/** The compress server's socket (deploy/nginx.conf.template), in the run directory. */
const COMPRESS_SOCKET = 'compress.sock';
/** sun_path holds 108 bytes, the last a NUL. */
const MAX_SOCKET_PATH = 107;

type ConfigOptions = { bin: string; runDir: string; listen: string; appPorts: readonly number[]; staticDir: string; refreshSecret: string };

/** Writes the config for a run directory, checks it with `nginx -t` and returns its file. */
export async function writeConfig({ bin, runDir, listen, appPorts, staticDir, refreshSecret }: ConfigOptions): Promise<string> {
  for (const [name, value] of Object.entries({ runDir, staticDir })) {
    if (!path.isAbsolute(value) || UNSAFE.test(value))
      throw new Error(`nginx: ${name} must be an absolute path without quotes, $, ; or braces: ${value}`);
  }
  // An empty secret would match every request without the header: every page view would bypass the cache.
  if (!/^[0-9a-f]{32,}$/.test(refreshSecret)) throw new Error('nginx: the cache refresh secret must be 32 or more hex digits');
  for (const dir of ['cache', 'tmp']) await mkdir(path.join(runDir, dir), { recursive: true });
  const compressSocket = path.join(runDir, COMPRESS_SOCKET);
  if (Buffer.byteLength(compressSocket) > MAX_SOCKET_PATH)
    throw new Error(`nginx: the run directory's path is too long for a socket in it (${compressSocket})`);
  // Left by an nginx that was killed, it would make the listen fail.
  await rm(compressSocket, { force: true });
  const modules = brotliModules(bin);
  const text = renderConfig(await readFile(TEMPLATE_FILE, 'utf8'), {
    ...brotliBlocks(modules),
    // As root, nginx would hand its workers to "nobody", who cannot write the run directory.
    USER: process.getuid?.() === 0 ? 'user root;' : '# runs as the user who started it',
    RUN_DIR: runDir,
    STATIC_DIR: staticDir,
    LISTEN: listen,
    UPSTREAM_SERVERS: upstreamServers(appPorts),
    REFRESH_SECRET: refreshSecret,
    COMPRESS_SOCKET: compressSocket,
  });
  const file = path.join(runDir, 'nginx.conf');
  await writeFile(file, text);
  // Only for this user: it holds the refresh secret.
  await chmod(file, 0o600);
  try {
    execFileSync(bin, ['-t', '-q', '-p', runDir, '-c', file, '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    throw new Error(`nginx rejected ${file}:\n${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`);
  }
  return file;
}

/** Runs nginx in the foreground with `config` (from writeConfig) in its own process group. */
export function startNginx({
  bin,
  runDir,
  config,
  forward,
}: {
  bin: string;
  runDir: string;
  config: string;
  forward?: (line: string) => void;
}) {
  // Not under libfaketime's preload (a run with its clock moved ahead): under it, nginx answered copies
  // a second past their one-second lifetime as fresh. Its lifetimes are relative, so its clock need not agree.
  return startProcess('nginx', bin, ['-p', runDir, '-c', config, '-e', 'stderr'], { forward, env: withoutFakeClock(process.env) });
}
