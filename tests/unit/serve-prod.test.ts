import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { APP_ROOT } from '../../testkit/paths.ts';

/** serve:prod (or serve) refusing to start, as an operator sees it: exit code and message, before any build. */
function serveProd(env: Record<string, string>, script = 'serve-prod.ts', args: string[] = []) {
  return spawnSync(process.execPath, [path.join(APP_ROOT, 'scripts', script), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('npm run serve:prod', () => {
  it('exits 1 and says how to install nginx when there is none', () => {
    const result = serveProd({ NGINX_BIN: '/nonexistent/sbin/nginx' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('nginx was not found at NGINX_BIN=/nonexistent/sbin/nginx');
    expect(result.stderr).toContain('apt-get install nginx');
  });

  it('with INSTANCES above 1 and no Supabase project, exits 1 naming the variables the instances need', () => {
    const result = serveProd({
      INSTANCES: '2',
      NEXT_PUBLIC_SUPABASE_URL: '',
      NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: '',
      NEXT_PUBLIC_SUPABASE_ANON_KEY: '',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'INSTANCES=2 needs a store the instances share: set NEXT_PUBLIC_SUPABASE_URL and NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY',
    );
  });

  it('exits 1 on a port that is not one', () => {
    const result = serveProd({ PORT: '80800' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT must be a whole number from 1 to 65535, got "80800"');
  });
});

describe('npm run serve', () => {
  it('exits 1 on a port that is not one, or an argument it does not know, before any build', () => {
    const port = serveProd({ PORT: '0' }, 'serve.ts');
    expect(port.status).toBe(1);
    expect(port.stderr).toContain('[serve] PORT must be a whole number from 1 to 65535, got "0"');
    const argument = serveProd({}, 'serve.ts', ['--fast']);
    expect(argument.status).toBe(1);
    expect(argument.stderr).toContain('[serve] usage: serve [--build | --no-build] (got --fast)');
  });
});
