import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { APP_ROOT } from '../../testkit/paths.ts';

/**
 * What an operator installs from deploy/: the systemd template unit, the env file example and the start
 * script, read and run as systemd would run them (docs/deploying.md).
 */

const deployFile = (name: string) => readFileSync(path.join(APP_ROOT, 'deploy', name), 'utf8');

/** `Key=value` lines of a unit file's [Service] section. */
function serviceSettings(unit: string): Map<string, string> {
  const section = unit.split(/^\[/m).find((part) => part.startsWith('Service]')) ?? '';
  const lines = section.split('\n').filter((line) => /^[A-Za-z]+=/.test(line));
  return new Map(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

/** Every variable lib/env/ reads: by name in a string, or as process.env.NAME. */
function variablesTheSiteReads(): string[] {
  const dir = path.join(APP_ROOT, 'lib', 'env');
  const code = readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('\n');
  const names = [...code.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)|'([A-Z][A-Z0-9_]{3,})'/g)].map((match) => match[1] ?? match[2]!);
  return [...new Set(names)].sort();
}

describe('deploy/site@.service', () => {
  const service = serviceSettings(deployFile('site@.service'));

  it('leaves restarting to systemd: Restart=on-failure, soon after a crash', () => {
    expect(service.get('Restart')).toBe('on-failure');
    expect(service.get('RestartSec')).toBe('1s');
  });

  it('is a template: the instance name is the port start.sh is given, with the env file of every instance', () => {
    expect(service.get('ExecStart')).toBe('/opt/site/start.sh %i');
    expect(service.get('EnvironmentFile')).toBe('/etc/site/site.env');
  });
});

describe('deploy/site.env.example', () => {
  it('lists every variable lib/env reads', () => {
    const listed = new Set([...deployFile('site.env.example').matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));
    const read = variablesTheSiteReads();
    expect(read.length).toBeGreaterThan(15);
    expect(read.filter((name) => !listed.has(name))).toEqual([]);
  });
});

describe('deploy/start.sh', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'start-sh-'));
    // A stand-in for the standalone server: prints what it was started with.
    const fields = ['PORT', 'HOSTNAME', 'NODE_ENV', 'TRUSTED_PROXY_HOPS'];
    await writeFile(
      path.join(dir, 'server.js'),
      `console.log(JSON.stringify(${JSON.stringify(fields)}.map((name) => process.env[name])));`,
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const run = (args: string[], cwd: string) =>
    spawnSync('sh', [path.join(APP_ROOT, 'deploy', 'start.sh'), ...args], {
      cwd,
      encoding: 'utf8',
      env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` } as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv,
    });

  it('runs server.js on 127.0.0.1 at the port it is given, in production, behind one proxy', () => {
    const result = run(['3005'], dir);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(['3005', '127.0.0.1', 'production', '1']);
  });

  it('refuses to start without a port, or outside a standalone folder', () => {
    expect(run([], dir).status).not.toBe(0);
    const outside = run(['3005'], os.tmpdir());
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain('no server.js');
  });
});
