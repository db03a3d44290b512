import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { CACHE_REFRESH_HEADER, refreshCachedPages } from './cache-refresh';
import { CACHED_ENCODINGS } from '@/lib/shared/cached-encodings';
import { PUBLIC_PATHS, ROUTES } from '@/lib/shared/public-pages';

/** A scripted caching proxy: records what the refresh asks of it; /privacy fails. */
const asked: { url: string; secret: string | undefined; encoding: string | undefined }[] = [];
let proxy: http.Server;
let origin: string;

beforeAll(async () => {
  proxy = http.createServer((request, response) => {
    asked.push({
      url: request.url ?? '',
      secret: request.headers[CACHE_REFRESH_HEADER] as string | undefined,
      encoding: request.headers['accept-encoding'],
    });
    response.writeHead(request.url === ROUTES.privacy ? 502 : 200).end('page');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => proxy.close(resolve)));

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  asked.length = 0;
});

describe('refreshCachedPages', () => {
  it('asks the proxy for every public page in every cached encoding with the secret, and reports a failing one without throwing', async () => {
    vi.stubEnv('CACHE_REFRESH_URL', origin);
    vi.stubEnv('CACHE_REFRESH_SECRET', 'the-secret');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});

    expect(await refreshCachedPages()).toEqual(PUBLIC_PATHS.filter((page) => page !== ROUTES.privacy));
    const every = PUBLIC_PATHS.flatMap((page) => CACHED_ENCODINGS.map((encoding) => `${page} ${encoding}`));
    expect(asked.map(({ url, encoding }) => `${url} ${encoding}`).sort()).toEqual(every.sort());
    expect(asked.every(({ secret }) => secret === 'the-secret')).toBe(true);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('/privacy (br) answered 502'));
    expect(logged).toHaveBeenCalledWith(
      `cache refresh through ${origin}: ${PUBLIC_PATHS.filter((page) => page !== ROUTES.privacy).join(', ')}`,
    );
  });

  it('does nothing without a proxy, and refuses half a setting or a URL that is not an origin', async () => {
    expect(await refreshCachedPages()).toEqual([]);
    expect(asked).toEqual([]);

    vi.stubEnv('CACHE_REFRESH_URL', origin);
    await expect(refreshCachedPages()).rejects.toThrow('CACHE_REFRESH_SECRET is not set, but CACHE_REFRESH_URL is.');
    vi.stubEnv('CACHE_REFRESH_SECRET', 'the-secret');
    vi.stubEnv('CACHE_REFRESH_URL', `${origin}/somewhere`);
    await expect(refreshCachedPages()).rejects.toThrow('CACHE_REFRESH_URL must be an http(s) origin');
  });
});
