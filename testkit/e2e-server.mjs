#!/usr/bin/env node
/**
 * The browser tests' server (playwright.config.ts webServer.command): prepares a fresh embedded store
 * (a copy of the migrated template, testkit/store.ts) and a private copy of the seed dataset, then runs
 * `next start` on the existing production build.
 *
 * This happens here and not in a Playwright globalSetup because Playwright starts the webServer
 * before globalSetup runs: wiping the data dir there would pull it from under a running server.
 *
 *   DATA_DIR      wiped and recreated; must lie inside .data/ or the OS temp dir (default .data/e2e)
 *   CONTENT_FILE  receives a copy of seed/production.ndjson (default $DATA_DIR/seed/production.ndjson);
 *                 the tests edit that copy to publish without a deploy, never the committed seed
 *   E2E_OWN_BUILD when set, the server runs on a copy of the build of its own (testkit/own-build.ts), removed
 *                 when it exits: for a server beside another of the same build with other content
 * Arguments are passed to `next start` (e.g. -p 3100 -H 127.0.0.1).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { APP_ROOT as ROOT, NEXT_BIN, SEED_FILE as SEED } from './paths.ts';
import { ownBuild } from './own-build.ts';
import { preparedDataDir } from './store.ts';

const dataDir = path.resolve(ROOT, process.env.DATA_DIR || '.data/e2e');
const contentFile = path.resolve(ROOT, process.env.CONTENT_FILE || path.join(dataDir, 'seed', 'production.ndjson'));
const distDir = path.resolve(ROOT, process.env.NEXT_DIST_DIR || '.next');

const inside = (dir, parent) => {
  const relative = path.relative(parent, dir);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

function fail(message) {
  console.error(`[e2e-server] ${message}`);
  process.exit(1);
}

// A wipe of a mistyped DATA_DIR (the repo, the real .data store) would be costly: refuse it.
if (!inside(dataDir, path.join(ROOT, '.data')) && !inside(dataDir, os.tmpdir())) {
  fail(`refusing to wipe DATA_DIR=${dataDir}: it must be a directory inside ${path.join(ROOT, '.data')} or ${os.tmpdir()}`);
}
if (path.resolve(contentFile) === SEED) fail('CONTENT_FILE is the committed seed; the tests edit it, so it must be a copy');
if (!existsSync(path.join(distDir, 'BUILD_ID'))) {
  fail(`no production build in ${path.relative(ROOT, distDir) || '.'}: run npm run build first (npm test builds it)`);
}

await rm(dataDir, { recursive: true, force: true });
await preparedDataDir(dataDir);
await mkdir(path.dirname(contentFile), { recursive: true });
await copyFile(SEED, contentFile);
console.log(`[e2e-server] fresh store in ${path.relative(ROOT, dataDir)}, dataset copy at ${path.relative(ROOT, contentFile)}`);

const build = process.env.E2E_OWN_BUILD ? await ownBuild(path.relative(ROOT, distDir)) : undefined;
const child = spawn(process.execPath, [NEXT_BIN, 'start', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: ['inherit', 'inherit', 'pipe'],
  env: {
    ...process.env,
    ...(build && { NEXT_DIST_DIR: build.distDir }),
    DATA_DIR: dataDir,
    CONTENT_FILE: contentFile,
    NEXT_TELEMETRY_DISABLED: '1',
  },
});
// `next start` serves the build as it is: each of these servers writes the pages a publish re-renders
// into .next/server/app, apart from the standalone folder that serve:prod (tests/e2e/stack.spec.ts)
// serves. It warns at every start that it "does not work with output: standalone", which is not so
// here; that one line is left out of the test log, which a reader would otherwise learn to ignore.
const STANDALONE_WARNING = /"next start" does not work with "output: standalone"/;
createInterface({ input: child.stderr }).on('line', (line) => {
  if (!STANDALONE_WARNING.test(line)) process.stderr.write(`${line}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  void Promise.resolve(build?.remove()).finally(() => process.exit(code ?? (signal ? 1 : 0)));
});
