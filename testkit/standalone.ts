/**
 * The standalone server Next builds (output: 'standalone' in next.config.ts): whether the build is there
 * and current, building it, adding the static files Next leaves out of it, and starting it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

import { APP_ROOT, NEXT_BIN } from './paths.ts';
import { startProcess } from './processes.ts';

/** Where a build in `distDir` (NEXT_DIST_DIR, default .next) puts the standalone server and its files. */
export function buildPaths(distDir = '.next') {
  const dist = path.resolve(APP_ROOT, distDir);
  const standalone = path.join(dist, 'standalone');
  // The standalone folder mirrors the project, its own dist dir included.
  const innerDist = path.join(standalone, path.relative(APP_ROOT, dist));
  return {
    dist,
    standalone,
    buildId: path.join(dist, 'BUILD_ID'),
    server: path.join(standalone, 'server.js'),
    staticSource: path.join(dist, 'static'),
    /** Where the standalone server looks for /_next/static, and where nginx serves it from. */
    staticDir: path.join(innerDist, 'static'),
  };
}

export type BuildPaths = ReturnType<typeof buildPaths>;

/** What a build is made of: a change to a file here makes it out of date (tests beside modules do not). */
const BUILD_INPUTS = [
  'app',
  'lib',
  'schemas',
  'studio',
  'supabase',
  'public',
  'next.config.ts',
  'proxy.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'postcss.config.mjs',
  'sanity.config.ts',
  // NEXT_PUBLIC_ values are written into the build.
  '.env',
  '.env.local',
  '.env.production',
  '.env.production.local',
];

/** Where a build made by runBuild records the hash of the inputs it was made from. */
export const inputsRecord = (paths: BuildPaths) => path.join(paths.dist, 'inputs.sha256');

/** Every input file, relative to the app, in a fixed order. */
function inputFiles() {
  const files: string[] = [];
  const visit = (file: string) => {
    const info = statSync(file, { throwIfNoEntry: false });
    if (info?.isDirectory()) for (const entry of readdirSync(file).sort()) visit(path.join(file, entry));
    else if (info && !/\.test\.tsx?$/.test(file)) files.push(file);
  };
  for (const input of BUILD_INPUTS) visit(path.join(APP_ROOT, input));
  return files;
}

/**
 * One hash of the inputs' names and contents. By content, not mtime: a tool that rewrites a file with
 * the same bytes (next build with another distDir rewrites tsconfig.json) leaves a build current.
 */
export function inputsHash() {
  const hash = createHash('sha256');
  for (const file of inputFiles()) {
    const body = readFileSync(file);
    hash.update(`${path.relative(APP_ROOT, file)}\0${body.length}\0`);
    hash.update(body);
  }
  return hash.digest('hex');
}

/** The input file changed last, for a build made without a record (a bare `next build`), judged by time. */
function newestInput() {
  return inputFiles().reduce(
    (newest, file) => {
      const { mtimeMs } = statSync(file);
      return mtimeMs > newest.mtimeMs ? { file, mtimeMs } : newest;
    },
    { file: '', mtimeMs: 0 },
  );
}

/**
 * 'missing', 'stale' (the inputs are not those it was built from) or 'current', with the reason in
 * words. A build runBuild made is judged by the hash of its inputs; one made by a bare `next build`,
 * which leaves no record, by whether an input is newer than it.
 */
export function buildState(paths: BuildPaths): { state: 'missing' | 'stale' | 'current'; reason: string } {
  const where = path.relative(APP_ROOT, paths.dist);
  if (!existsSync(paths.buildId) || !existsSync(paths.server)) {
    return { state: 'missing', reason: `no standalone build in ${where}` };
  }
  const current = { state: 'current', reason: `the build in ${where} is current` } as const;
  if (existsSync(inputsRecord(paths))) {
    return readFileSync(inputsRecord(paths), 'utf8').trim() === inputsHash()
      ? current
      : { state: 'stale', reason: `the sources changed since the build in ${where}` };
  }
  const newest = newestInput();
  if (newest.mtimeMs > statSync(paths.buildId).mtimeMs) {
    return { state: 'stale', reason: `${path.relative(APP_ROOT, newest.file)} changed after the build in ${where}` };
  }
  return current;
}

/** `next build` in the app's folder (into env.NEXT_DIST_DIR), its output on this terminal; throws when it fails. */
export async function runBuild(env: NodeJS.ProcessEnv): Promise<void> {
  const record = inputsRecord(buildPaths(env.NEXT_DIST_DIR || undefined));
  // Taken before the build reads them: an edit made while it runs leaves the build stale.
  const hash = inputsHash();
  const build = startProcess('next build', process.execPath, [NEXT_BIN, 'build'], {
    cwd: APP_ROOT,
    env: { ...env, NEXT_TELEMETRY_DISABLED: '1' },
    forward: (line) => console.log(line),
  });
  const { code, signal } = await build.exited;
  if (code !== 0)
    throw new Error(`next build failed (${signal ?? `exit code ${code}`})${code === null && !signal ? `: ${build.output()}` : ''}`);
  await writeFile(record, `${hash}\n`);
}

/** auto: build when missing or stale; never: serve what is there; always: build first. */
export type BuildMode = 'auto' | 'never' | 'always';

/**
 * The build of `paths`, made first when `mode` asks for it (auto: when missing or stale), with its
 * static files compressed for nginx. Throws when there is none and none may be made.
 */
export async function ensureBuild(paths: BuildPaths, mode: BuildMode, env: NodeJS.ProcessEnv, log: (line: string) => void) {
  const { state, reason } = buildState(paths);
  if (mode === 'always' || (mode === 'auto' && state !== 'current')) {
    log(`building (${mode === 'always' ? 'asked to' : reason}) ...`);
    await runBuild(env);
  } else if (state === 'missing') {
    throw new Error(`${reason}: run next build first, or leave out --no-build`);
  } else if (state === 'stale') {
    log(`warning: ${reason}; serving the existing build (--no-build)`);
  }
  const compressed = await prepareStatic(paths);
  if (compressed) log(`compressed ${compressed} static files for gzip_static and brotli_static`);
  return paths;
}

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt)$/;
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Copies the static files into the standalone folder (Next leaves them out), so that the folder alone
 * is the whole app, and writes a gzip and a brotli copy beside each text file for nginx's gzip_static
 * and brotli_static: compressed once, at gzip 9 and brotli 9, not on every request. Brotli 9 rather
 * than 11: 11 took 18 s for the 4.4 MB Studio chunk here (9: 2 s) for 10 % fewer bytes.
 * Files already there are kept (names are content hashes). Returns how many were compressed now.
 */
export async function prepareStatic(paths: BuildPaths) {
  await cp(paths.staticSource, paths.staticDir, { recursive: true, force: false });
  const files = (await readdir(paths.staticDir, { recursive: true })).map((file) => path.join(paths.staticDir, file));
  let compressed = 0;
  for (const file of files.filter((name) => COMPRESSIBLE.test(name))) {
    if (existsSync(`${file}.br`)) continue;
    const body = await readFile(file);
    await writeFile(`${file}.gz`, await gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }));
    await writeFile(
      `${file}.br`,
      await brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    );
    compressed += 1;
  }
  return compressed;
}

/**
 * Starts the standalone server on 127.0.0.1:port. Its server.js changes into its own folder first,
 * whatever directory this runs in.
 */
export function startApp({
  paths,
  port,
  env,
  forward,
}: {
  paths: BuildPaths;
  port: number;
  env: NodeJS.ProcessEnv;
  forward?: (line: string) => void;
}) {
  return startProcess('app', process.execPath, [paths.server], {
    env: { ...env, NODE_ENV: 'production', PORT: String(port), HOSTNAME: '127.0.0.1' },
    forward,
  });
}

/**
 * A private copy of the standalone folder in `dir`, for a run that publishes: the server rewrites the
 * prerendered pages of its own folder on revalidation, and those edits must not reach the real build.
 * Call prepareStatic on `paths` first, so the copy has the compressed static files.
 */
export async function copyStandalone(paths: BuildPaths, dir: string): Promise<BuildPaths> {
  await cp(paths.standalone, dir, { recursive: true });
  const inner = (file: string) => path.join(dir, path.relative(paths.standalone, file));
  return {
    ...paths,
    standalone: dir,
    server: inner(paths.server),
    staticDir: inner(paths.staticDir),
  };
}

/** The prerendered HTML of `/` in a build's standalone folder. */
export const prerenderedHome = (paths: BuildPaths) => path.join(path.dirname(paths.staticDir), 'server', 'app', 'index.html');
