import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { buildPaths, buildState, inputsHash, inputsRecord } from './standalone.ts';

/** A build folder with just what buildState looks at, made at the epoch: older than every source file. */
function oldBuild() {
  const paths = buildPaths(mkdtempSync(path.join(os.tmpdir(), 'build-state-')));
  mkdirSync(paths.standalone, { recursive: true });
  writeFileSync(paths.server, '');
  writeFileSync(paths.buildId, 'test');
  utimesSync(paths.buildId, 0, 0);
  return paths;
}

describe('buildState', () => {
  let paths: ReturnType<typeof buildPaths> | undefined;
  afterEach(() => paths && rmSync(paths.dist, { recursive: true, force: true }));

  it('judges a recorded build by the contents of its inputs, not their times', () => {
    paths = oldBuild();
    writeFileSync(inputsRecord(paths), `${inputsHash()}\n`);
    expect(buildState(paths).state).toBe('current');
    writeFileSync(inputsRecord(paths), `${'0'.repeat(64)}\n`);
    expect(buildState(paths)).toEqual({ state: 'stale', reason: expect.stringContaining('the sources changed') });
  });

  it('judges a build with no record (a bare next build) by time', () => {
    paths = oldBuild();
    expect(buildState(paths)).toEqual({ state: 'stale', reason: expect.stringContaining('changed after the build') });
  });
});
