import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { CACHE_REFRESH_HEADER, refreshCachedPages } from '@/lib/cache/cache-refresh';
import { CACHED_ENCODINGS } from '@/lib/shared/cached-encodings';
import { PUBLIC_PATHS } from '@/lib/shared/public-pages';

import { findNginx, INSTALL_HINT, startNginx, writeConfig } from '../../testkit/nginx.ts';
import { freePort, waitForHttp, type Child } from '../../testkit/processes.ts';

/**
 * deploy/nginx.conf.template as serve:prod renders it, run by the real nginx in front of a scripted
 * app (a node server that records what reaches it): what is cached, what passes, what the app sees.
 */

type Seen = { method: string; url: string; headers: http.IncomingMessage['headers'] };
type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

const REFRESH_SECRET = 'a'.repeat(32);
const CACHE_STATUS = 'x-cache-status';
const PAGE_CACHE_CONTROL = 's-maxage=86400, stale-while-revalidate=31449600';
const CSP = "default-src 'self'";

let seen: Seen[] = [];
let version = 'v1';
let app: http.Server;
const sockets = new Set<Socket>();
let nginx: Child;
let origin: string;
let workDir: string;
let staticFile: Buffer;

/** The page body: over gzip's and brotli's 256-byte minimum. */
const page = () => `<!doctype html><main><h1>${version}</h1><p>${'text '.repeat(80)}</p></main>`;

function answerAsApp(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = request.url ?? '/';
  seen.push({ method: request.method ?? '', url, headers: request.headers });
  request.resume();
  const html = (status: number, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    response.end(page());
  };
  if (request.method !== 'GET' || url.startsWith('/api/') || url.startsWith('/studio')) return html(200);
  const pathname = url.split('?')[0] ?? url;
  if (pathname === '/page' || (PUBLIC_PATHS as string[]).includes(pathname))
    return html(200, { 'cache-control': PAGE_CACHE_CONTROL, 'content-security-policy': CSP, vary: 'rsc, Accept-Encoding' });
  if (pathname === '/sets-cookie') return html(200, { 'set-cookie': '__prerender_bypass=1; Path=/; HttpOnly' });
  if (pathname === '/private') return html(200, { 'cache-control': 'private, no-cache, no-store, max-age=0, must-revalidate' });
  if (pathname === '/broken') return html(500);
  return html(404, { 'x-content-type-options': 'nosniff', 'cache-control': 'private, no-cache, no-store, max-age=0, must-revalidate' });
}

function request(
  pathname: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = http.request(
      `${origin}${pathname}`,
      { method, headers: { 'accept-encoding': 'identity', ...headers }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      },
    );
    call.on('error', reject);
    call.end(method === 'POST' ? 'field=value' : undefined);
  });
}

const asApp = (pathname: string) => seen.filter((entry) => entry.url === pathname);

/** The body as the client reads it, whatever its Content-Encoding. */
function decoded({ headers, body }: Answer) {
  if (headers['content-encoding'] === 'br') return brotliDecompressSync(body).toString();
  if (headers['content-encoding'] === 'gzip') return gunzipSync(body).toString();
  expect(headers['content-encoding']).toBeUndefined();
  return body.toString();
}

/** How browsers and other clients ask, and the copy each gets (its Content-Encoding). */
const CLIENTS = [
  { acceptEncoding: 'gzip, deflate, br, zstd', encoding: 'br' },
  { acceptEncoding: 'gzip, deflate', encoding: 'gzip' },
  { acceptEncoding: 'identity', encoding: undefined },
] as const;

/** Headers that differ between two answers of the same page: when and how it was sent. */
const PER_ANSWER = new Set(['date', 'content-length', 'content-encoding', 'transfer-encoding', 'etag', CACHE_STATUS]);
const lasting = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.has(name)));

/** Stores every encoding's copy of `pathname` now, as a publish's refresh does. */
const storeEveryEncoding = (pathname: string) =>
  Promise.all(
    CACHED_ENCODINGS.map((encoding) =>
      request(pathname, { headers: { [CACHE_REFRESH_HEADER]: REFRESH_SECRET, 'accept-encoding': encoding } }),
    ),
  );

/** Stores the current page now, so that a test has the copy's whole lifetime (one second or more). */
const storeFresh = () => request('/page', { headers: { [CACHE_REFRESH_HEADER]: REFRESH_SECRET } });

beforeAll(async () => {
  const bin = findNginx();
  if (!bin) throw new Error(`nginx is needed for this test: ${INSTALL_HINT}`);
  workDir = await mkdtemp(path.join(os.tmpdir(), 'nginx-test-'));
  const staticDir = path.join(workDir, 'static');
  await mkdir(path.join(staticDir, 'chunks'), { recursive: true });
  staticFile = Buffer.from(`console.log(${JSON.stringify('x'.repeat(400))});`);
  await writeFile(path.join(staticDir, 'chunks', 'a.js'), staticFile);
  await writeFile(path.join(staticDir, 'chunks', 'a.js.gz'), gzipSync(staticFile));
  await writeFile(path.join(staticDir, 'chunks', 'a.js.br'), brotliCompressSync(staticFile));

  app = http.createServer(answerAsApp);
  app.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const runDir = path.join(workDir, 'run');
  const config = await writeConfig({
    bin,
    runDir,
    listen: `127.0.0.1:${port}`,
    appPorts: [(app.address() as AddressInfo).port],
    staticDir,
    refreshSecret: REFRESH_SECRET,
  });
  nginx = startNginx({ bin, runDir, config });
  await waitForHttp(`${origin}/_next/static/chunks/a.js`, { child: nginx, timeoutMs: 10_000 });
}, 30_000);

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await nginx?.stop({ signal: 'SIGQUIT' });
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => app?.close(resolve));
  await rm(workDir, { recursive: true, force: true });
});

describe('nginx in front of the app (deploy/nginx.conf.template)', () => {
  it('replaces a forged client address with its own view, keeps Host with its port and asks the app for plain bytes', async () => {
    seen = [];
    // /api/ goes straight to the app; a page through the compress server: the app sees the same.
    for (const pathname of ['/api/echo', '/page?forwarded']) {
      await request(pathname, {
        headers: { 'x-forwarded-for': '203.0.113.7, 198.51.100.1', 'x-real-ip': '203.0.113.7', 'accept-encoding': 'gzip, br' },
      });
      const [forwarded] = asApp(pathname);
      expect(forwarded?.headers['x-forwarded-for'], pathname).toBe('127.0.0.1');
      expect(forwarded?.headers['x-real-ip'], pathname).toBe('127.0.0.1');
      expect(forwarded?.headers.host, pathname).toBe(new URL(origin).host);
      expect(forwarded?.headers['x-forwarded-host'], pathname).toBe(new URL(origin).host);
      expect(forwarded?.headers['accept-encoding'], pathname).toBeUndefined();
    }
  });

  it('keeps one copy of a page per encoding, compressed once: each client gets its copy from the cache, headers alike', async () => {
    seen = [];
    const answers = [];
    for (const { acceptEncoding, encoding } of CLIENTS) {
      const first = await request('/page?variants', { headers: { 'accept-encoding': acceptEncoding } });
      expect(first.headers[CACHE_STATUS], acceptEncoding).toBe('MISS');
      const again = await request('/page?variants', { headers: { 'accept-encoding': acceptEncoding, host: 'forged.example' } });
      expect(again.headers[CACHE_STATUS], acceptEncoding).toBe('HIT');
      for (const answer of [first, again]) {
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding'], acceptEncoding).toBe(encoding);
        expect(decoded(answer), acceptEncoding).toBe(page());
        expect(answer.headers['content-security-policy']).toBe(CSP);
        expect(answer.headers.vary, acceptEncoding).toMatch(/accept-encoding/i);
      }
      // The stored bytes, as they were compressed the first time.
      expect(again.body.equals(first.body), acceptEncoding).toBe(true);
      answers.push(first, again);
    }
    // The same headers (but how and when each was sent) for every encoding, from the app or the cache.
    for (const answer of answers) expect(lasting(answer.headers)).toEqual(lasting(answers[0]!.headers));
    expect(asApp('/page?variants')).toHaveLength(CLIENTS.length);
    expect(asApp('/page?variants').every((entry) => entry.headers['accept-encoding'] === undefined)).toBe(true);
  });

  it('answers every way of saying Accept-Encoding from one of the copies, without asking the app again', async () => {
    await storeEveryEncoding('/page');
    seen = [];
    for (const [acceptEncoding, encoding] of [
      ['br', 'br'],
      ['zstd, BR;q=0.5', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=1.0', 'gzip'],
      ['gzip;q=0', undefined],
      ['deflate', undefined],
      ['', undefined],
      ...CLIENTS.map((client): [string, string | undefined] => [client.acceptEncoding, client.encoding]),
    ] as [string, string | undefined][]) {
      const answer = await request('/page', { headers: { 'accept-encoding': acceptEncoding } });
      expect(answer.headers[CACHE_STATUS], acceptEncoding).toBe('HIT');
      expect(answer.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(decoded(answer), acceptEncoding).toBe(page());
    }
    expect(asApp('/page')).toHaveLength(0);
  });

  it('answers HEAD from the copy of its encoding, and a HEAD that misses stores the whole page', async () => {
    seen = [];
    const miss = await request('/page?head', { method: 'HEAD', headers: { 'accept-encoding': 'gzip, br' } });
    expect(miss.status).toBe(200);
    expect(miss.headers[CACHE_STATUS]).toBe('MISS');
    expect(miss.headers['content-encoding']).toBe('br');
    expect(miss.body).toHaveLength(0);
    const hit = await request('/page?head', { method: 'HEAD', headers: { 'accept-encoding': 'gzip, br' } });
    expect(hit.headers[CACHE_STATUS]).toBe('HIT');
    expect(hit.headers['content-encoding']).toBe('br');
    expect(hit.body).toHaveLength(0);
    const get = await request('/page?head', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(get.headers[CACHE_STATUS]).toBe('HIT');
    expect(decoded(get)).toBe(page());
    expect(asApp('/page?head').map((entry) => entry.method)).toEqual(['GET']);
  });

  it('never stores an answer that sets a cookie or is private, and never answers draft mode, RSC or actions from the cache', async () => {
    await storeFresh();
    seen = [];
    for (const pathname of ['/sets-cookie', '/private']) {
      await request(pathname);
      const again = await request(pathname);
      expect(again.headers[CACHE_STATUS], pathname).toBe('MISS');
      expect(asApp(pathname), pathname).toHaveLength(2);
    }
    for (const headers of [{ cookie: '__prerender_bypass=abc' }, { rsc: '1' }, { 'next-action': 'abc' }] as Record<string, string>[]) {
      const answer = await request('/page', { headers: { ...headers, 'accept-encoding': 'gzip' } });
      expect(answer.headers[CACHE_STATUS], JSON.stringify(headers)).toBeUndefined();
      // Compressed for this request, as the client asked.
      expect(answer.headers['content-encoding'], JSON.stringify(headers)).toBe('gzip');
      expect(decoded(answer)).toBe(page());
    }
    expect(asApp('/page')).toHaveLength(3);
    expect(asApp('/page').every((entry) => entry.headers['accept-encoding'] === undefined)).toBe(true);
    // What they got was not stored: a visitor still gets the cached page.
    expect((await request('/page')).headers[CACHE_STATUS]).toBe('HIT');
  });

  it('passes POSTs, /api/ and /studio to the app every time', async () => {
    seen = [];
    for (const [pathname, method] of [
      ['/page', 'POST'],
      ['/api/revalidate', 'POST'],
      ['/api/draft-mode/enable', 'GET'],
      // The back office's personal data: never a copy in nginx's cache, whatever the app's headers say.
      ['/api/back-office/notices', 'GET'],
      ['/api/back-office/person', 'POST'],
      ['/studio', 'GET'],
    ] as const) {
      const first = await request(pathname, { method });
      await request(pathname, { method });
      expect(first.status, pathname).toBe(200);
      expect(first.headers[CACHE_STATUS], pathname).toBeUndefined();
      expect(
        seen.filter((entry) => entry.url === pathname && entry.method === method),
        pathname,
      ).toHaveLength(2);
    }
  });

  it("passes the app's 404 with its headers through, and never caches a 500", async () => {
    seen = [];
    const missing = await request('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
    expect(missing.body.toString()).toContain(version);
    const broken = await request('/broken');
    await request('/broken');
    expect(broken.status).toBe(500);
    expect(asApp('/broken')).toHaveLength(2);
  });

  it('a refresh with the secret takes the page from the app again and keeps it; a wrong secret changes nothing', async () => {
    await storeFresh();
    version = 'v2';
    seen = [];
    const wrong = await request('/page', { headers: { [CACHE_REFRESH_HEADER]: 'b'.repeat(32) } });
    expect(wrong.body.toString()).not.toContain('v2');
    expect(asApp('/page')).toHaveLength(0);

    const refresh = await request('/page', { headers: { [CACHE_REFRESH_HEADER]: REFRESH_SECRET } });
    expect(refresh.headers[CACHE_STATUS]).toBe('BYPASS');
    expect(refresh.body.toString()).toContain('v2');
    const visitor = await request('/page');
    expect(visitor.headers[CACHE_STATUS]).toBe('HIT');
    expect(visitor.body.toString()).toContain('v2');
    expect(asApp('/page')).toHaveLength(1);
  });

  it("a publish's refresh (lib/cache/cache-refresh.ts) takes every page it changed in every encoding from the app again", async () => {
    vi.stubEnv('CACHE_REFRESH_URL', origin);
    vi.stubEnv('CACHE_REFRESH_SECRET', REFRESH_SECRET);
    vi.spyOn(console, 'log').mockImplementation(() => {});
    for (const pathname of PUBLIC_PATHS) await storeEveryEncoding(pathname);
    version = 'published';
    seen = [];
    expect(await refreshCachedPages([{ pages: PUBLIC_PATHS, language: null }])).toEqual(PUBLIC_PATHS);
    expect(seen).toHaveLength(PUBLIC_PATHS.length * CACHED_ENCODINGS.length);
    seen = [];
    for (const pathname of PUBLIC_PATHS) {
      for (const { acceptEncoding } of CLIENTS) {
        const answer = await request(pathname, { headers: { 'accept-encoding': acceptEncoding } });
        expect(answer.headers[CACHE_STATUS], `${pathname} ${acceptEncoding}`).toBe('HIT');
        expect(decoded(answer), `${pathname} ${acceptEncoding}`).toContain('<h1>published</h1>');
      }
    }
    expect(seen).toHaveLength(0);
  });

  it('without a refresh, an edit shows once the one-second copy expires: the request that finds it asks the app', async () => {
    await storeFresh();
    version = 'v3';
    let polls = 0;
    let answer: Answer | undefined;
    // nginx counts whole seconds: a copy lives one to two of them. 50 polls 100 ms apart are plenty.
    while (polls < 50) {
      polls += 1;
      answer = await request('/page');
      if (answer.body.toString().includes('v3')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.log(`edit visible after ${polls} polls, 100 ms apart, answered ${String(answer?.headers[CACHE_STATUS])}`);
    expect(answer?.body.toString()).toContain('v3');
    expect(answer?.headers[CACHE_STATUS]).toBe('EXPIRED');
  });

  it('serves /_next/static from disk: immutable, precompressed, never the app', async () => {
    seen = [];
    const plain = await request('/_next/static/chunks/a.js');
    expect(plain.status).toBe(200);
    expect(plain.body.equals(staticFile)).toBe(true);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toBe('text/javascript');
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    const brotli = await request('/_next/static/chunks/a.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).equals(staticFile)).toBe(true);
    expect((await request('/_next/static/chunks/missing.js')).status).toBe(404);
    expect(seen).toHaveLength(0);
  });

  // Last: the scripted app stops for good.
  it('with the app down, serves the last good page in every encoding (STALE, 200); what it never had answers 502', async () => {
    const good = await storeEveryEncoding('/page');
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => app.close(resolve));
    // Past the copies' lifetime, so nginx has to ask the app first.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    for (const [index, encoding] of CACHED_ENCODINGS.entries()) {
      const stale = await request('/page', { headers: { 'accept-encoding': encoding } });
      expect(stale.status, encoding).toBe(200);
      expect(stale.headers[CACHE_STATUS], encoding).toBe('STALE');
      expect(stale.headers['content-encoding'], encoding).toBe(encoding === 'identity' ? undefined : encoding);
      expect(stale.body.equals(good[index]!.body), encoding).toBe(true);
      expect(lasting(stale.headers), encoding).toEqual(lasting(good[index]!.headers));
    }
    expect((await request('/never-seen')).status).toBe(502);
  });
});
