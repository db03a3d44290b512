import { readFile, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  brotliBlocks,
  findNginx,
  INSTALL_HINT,
  renderConfig,
  startNginx,
  TEMPLATE_FILE,
  upstreamServers,
  writeConfig,
} from '../../testkit/nginx.ts';
import { freePort, waitForHttp, type Child } from '../../testkit/processes.ts';

/**
 * N app instances behind nginx: deploy/nginx.conf.template's one upstream lists each of them,
 * and nginx, run for real, spreads requests over them and goes around one that is down.
 */

describe('the upstream of deploy/nginx.conf.template', () => {
  const render = async (ports: number[]) =>
    renderConfig(await readFile(TEMPLATE_FILE, 'utf8'), {
      ...brotliBlocks({ filter: null, static: null }),
      USER: '',
      RUN_DIR: '/run/site',
      STATIC_DIR: '/opt/site/app/.next/static',
      LISTEN: '127.0.0.1:8080',
      UPSTREAM_SERVERS: upstreamServers(ports),
      REFRESH_SECRET: 'a'.repeat(32),
      COMPRESS_SOCKET: '/run/site/compress.sock',
    });

  it('is one upstream listing every instance, with idle connections kept to them', async () => {
    const config = await render([3001, 3002, 3003]);
    // The other upstream is nginx's own compress server (one copy per encoding), not an app.
    const upstreams = [...config.matchAll(/upstream (\w+) \{([^}]*)\}/g)].filter((match) => match[1] !== 'compress');
    expect(upstreams.map((match) => match[1])).toEqual(['app']);
    const servers = upstreams[0]![2]!.split('\n').filter((line) => /^\s*server /.test(line));
    expect(servers.map((line) => line.trim())).toEqual(['server 127.0.0.1:3001;', 'server 127.0.0.1:3002;', 'server 127.0.0.1:3003;']);
    expect(upstreams[0]![2]).toMatch(/^\s*keepalive \d+;/m);
  });

  it('refuses no instance at all, and a port that is not one', () => {
    expect(() => upstreamServers([])).toThrow('at least one app instance');
    expect(() => upstreamServers([3001, 70_000])).toThrow('not a port: 70000');
  });
});

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** nginx (deploy/nginx.conf.template, run for real) in front of one scripted app per handler, for a describe's tests. */
function inFront(handlers: Handler[]) {
  const running = { apps: [] as http.Server[], origin: '' };
  let nginx: Child;
  let workDir: string;

  beforeAll(async () => {
    const bin = findNginx();
    if (!bin) throw new Error(`nginx is needed for this test: ${INSTALL_HINT}`);
    workDir = await mkdtemp(path.join(os.tmpdir(), 'nginx-upstream-'));
    running.apps = handlers.map((handler) => http.createServer(handler));
    await Promise.all(running.apps.map((app) => new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))));
    const port = await freePort();
    running.origin = `http://127.0.0.1:${port}`;
    const runDir = path.join(workDir, 'run');
    const appPorts = running.apps.map((app) => (app.address() as AddressInfo).port);
    const config = await writeConfig({
      bin,
      runDir,
      listen: `127.0.0.1:${port}`,
      appPorts,
      staticDir: workDir,
      refreshSecret: 'a'.repeat(32),
    });
    nginx = startNginx({ bin, runDir, config });
    await waitForHttp(`${running.origin}/api/ping`, { child: nginx, timeoutMs: 10_000 });
  }, 30_000);

  afterAll(async () => {
    await nginx?.stop({ signal: 'SIGQUIT' });
    for (const app of running.apps) app.closeAllConnections();
    await Promise.all(running.apps.map((app) => new Promise((resolve) => app.close(resolve))));
    await rm(workDir, { recursive: true, force: true });
  });
  return running;
}

describe('nginx in front of two instances', () => {
  const hits = [0, 0];
  const running = inFront([0, 1].map((index) => (_, response) => void (hits[index]!++, response.end(`instance ${index}`))));

  const askTen = () => Promise.all(Array.from({ length: 10 }, async () => (await fetch(`${running.origin}/api/ping`)).status));

  it('spreads uncached requests over both', async () => {
    hits.fill(0);
    expect(await askTen()).toEqual(Array(10).fill(200));
    expect(hits[0]).toBeGreaterThan(0);
    expect(hits[1]).toBeGreaterThan(0);
  });

  it('with one instance down, the other answers every request', async () => {
    const [down] = running.apps;
    down!.closeAllConnections();
    await new Promise((resolve) => down!.close(resolve));
    hits.fill(0);
    expect(await askTen()).toEqual(Array(10).fill(200));
    expect(hits).toEqual([0, 10]);
  });
});

describe('a form post whose instance drops its connection', () => {
  // Instance 0 takes a post and closes the connection unanswered, as a killed instance's kept-alive
  // connection does (tests/e2e/scale.spec.ts); instance 1 answers. Instance 0 answers the readiness
  // ping: a dropped ping would mark it failed in that nginx worker for fail_timeout, and every post
  // would then go straight to instance 1, leaving the retry untested.
  const posts = [0, 0];
  const running = inFront([
    (request, response) => (request.method === 'POST' ? void (posts[0]!++, request.socket.destroy()) : void response.end('instance 0')),
    (request, response) =>
      void ((posts[1]! += Number(request.method === 'POST')), request.resume(), request.on('end', () => response.end('stored'))),
  ]);

  it('is passed on to the other instance, not answered 502', async () => {
    const statuses: number[] = [];
    for (let post = 0; post < 4; post += 1) {
      const response = await fetch(`${running.origin}/support`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `message=post ${post}`,
      });
      statuses.push(response.status);
    }
    expect(posts[0]).toBeGreaterThan(0);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(posts[1]).toBe(4);
  });
});
