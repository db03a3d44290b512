import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { CACHE_REFRESH_HEADER, pathsShowing, REFRESH_CONCURRENCY, refreshCachedPages } from './cache-refresh';
import { CACHED_ENCODINGS } from '@/lib/shared/cached-encodings';
import { serveLanguages } from '@/lib/shared/language-gate';
import { MAX_LANGUAGES, type Language } from '@/lib/shared/languages';
import { pagesShowing, PUBLIC_PATHS, ROUTES } from '@/lib/shared/public-pages';

/**
 * A scripted caching proxy: records what the refresh asks of it, and how many at once; /privacy fails. It
 * holds its answers until as many requests are open as the refresh may have (or, for the last few, a
 * moment): how many it saw at once then depends on the refresh alone, not on how busy the machine is.
 */
const asked: { url: string; secret: string | undefined; encoding: string | undefined }[] = [];
let open = 0;
let mostOpen = 0;
let proxy: http.Server;
let origin: string;
const MOST_AT_ONCE = REFRESH_CONCURRENCY * CACHED_ENCODINGS.length;
const held: (() => void)[] = [];
const TAIL_MS = 100;

beforeAll(async () => {
  proxy = http.createServer((request, response) => {
    asked.push({
      url: request.url ?? '',
      secret: request.headers[CACHE_REFRESH_HEADER] as string | undefined,
      encoding: request.headers['accept-encoding'],
    });
    mostOpen = Math.max(mostOpen, ++open);
    let answered = false;
    const answer = () => {
      if (answered) return;
      answered = true;
      open -= 1;
      response.writeHead(request.url === ROUTES.privacy ? 502 : 200).end('page');
    };
    held.push(answer);
    if (open >= MOST_AT_ONCE) for (const release of held.splice(0)) release();
    else setTimeout(answer, TAIL_MS);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => proxy.close(resolve)));

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  asked.length = 0;
  mostOpen = 0;
});

const language = (tag: string): Language => ({ tag, name: tag, direction: 'ltr' });
const site = (...tags: string[]) =>
  serveLanguages({ languages: tags.map(language), defaultLanguage: tags[0]!, governingLanguage: tags[0]! });

describe('pathsShowing', () => {
  it("gives a translation's pages in its own language, and a default document's in every language, its own first", () => {
    site('en', 'es', 'fr');
    const policy = pagesShowing('privacyPolicy');
    expect(policy).toEqual([ROUTES.privacy, ROUTES.versions]);
    expect(pathsShowing([{ pages: policy, language: 'es' }])).toEqual(['/es/privacy', '/es/privacy/versions']);
    expect(pathsShowing([{ pages: [ROUTES.home], language: null }])).toEqual(['/', '/es', '/fr']);
    expect(pathsShowing([{ pages: [ROUTES.support], language: 'en' }])).toEqual(['/support', '/es/support', '/fr/support']);
    expect(pathsShowing([{ pages: [ROUTES.home], language: 'de' }]), 'a language the site does not have').toEqual([]);
    expect(pathsShowing([{ pages: pagesShowing('siteSettings'), language: 'fr' }])).toEqual(
      PUBLIC_PATHS.map((path) => `/fr${path === '/' ? '' : path}`),
    );
  });

  it('bounds a publish by the languages times the pages, however many changes come', () => {
    site(...Array.from({ length: MAX_LANGUAGES }, (_, n) => (n === 0 ? 'en' : `l${n}`)));
    const everything = Array.from({ length: 100 }, () => ({ pages: pagesShowing('siteSettings'), language: null }));
    const paths = pathsShowing(everything);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.length).toBeLessThanOrEqual(MAX_LANGUAGES * PUBLIC_PATHS.length);
  });
});

describe('refreshCachedPages', () => {
  it('asks the proxy for each changed page in every cached encoding with the secret, a few at a time, and reports a failing one without throwing', async () => {
    vi.stubEnv('CACHE_REFRESH_URL', origin);
    vi.stubEnv('CACHE_REFRESH_SECRET', 'the-secret');
    site('en', 'es');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});

    const changed = [{ pages: pagesShowing('siteSettings'), language: null }];
    const every = pathsShowing(changed);
    expect(every).toHaveLength(2 * PUBLIC_PATHS.length);
    expect(await refreshCachedPages(changed)).toEqual(every.filter((page) => page !== ROUTES.privacy));
    const copies = every.flatMap((page) => CACHED_ENCODINGS.map((encoding) => `${page} ${encoding}`));
    expect(asked.map(({ url, encoding }) => `${url} ${encoding}`).sort()).toEqual(copies.sort());
    expect(asked.every(({ secret }) => secret === 'the-secret')).toBe(true);
    expect(mostOpen).toBe(MOST_AT_ONCE);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('/privacy (br) answered 502'));
    expect(logged).toHaveBeenCalledWith(`cache refresh through ${origin}: ${every.filter((page) => page !== ROUTES.privacy).join(', ')}`);
  });

  it('asks once for a page two publishes changed before its turn', async () => {
    vi.stubEnv('CACHE_REFRESH_URL', origin);
    vi.stubEnv('CACHE_REFRESH_SECRET', 'the-secret');
    vi.spyOn(console, 'log').mockImplementation(() => {});
    site('en', 'es');
    const spanish = { pages: pagesShowing('supportPage'), language: 'es' };
    const home = { pages: pagesShowing('landingPage'), language: null };
    // Two pages fill the slots; the Spanish support page waits behind them, asked for twice meanwhile.
    await Promise.all([refreshCachedPages([home]), refreshCachedPages([spanish]), refreshCachedPages([spanish])]);
    expect(asked.filter(({ url }) => url === '/es/support')).toHaveLength(CACHED_ENCODINGS.length);
  });

  it("takes a later publish's own first page before the tail of an earlier one", async () => {
    vi.stubEnv('CACHE_REFRESH_URL', origin);
    vi.stubEnv('CACHE_REFRESH_SECRET', 'the-secret');
    vi.spyOn(console, 'log').mockImplementation(() => {});
    site('en', 'es', 'fr', 'de', 'it');
    const everyHome = refreshCachedPages([{ pages: pagesShowing('landingPage'), language: null }]);
    const frenchSupport = refreshCachedPages([{ pages: pagesShowing('supportPage'), language: 'fr' }]);
    await Promise.all([everyHome, frenchSupport]);
    const order = [...new Set(asked.map(({ url }) => url))];
    expect(order).toEqual(['/', '/es', '/fr/support', '/fr', '/de', '/it']);
  });

  it('does nothing without a proxy, and refuses half a setting or a URL that is not an origin', async () => {
    const changed = [{ pages: [ROUTES.home], language: null }];
    expect(await refreshCachedPages(changed)).toEqual([]);
    expect(asked).toEqual([]);

    vi.stubEnv('CACHE_REFRESH_URL', origin);
    await expect(refreshCachedPages(changed)).rejects.toThrow('CACHE_REFRESH_SECRET is not set, but CACHE_REFRESH_URL is.');
    vi.stubEnv('CACHE_REFRESH_SECRET', 'the-secret');
    vi.stubEnv('CACHE_REFRESH_URL', `${origin}/somewhere`);
    await expect(refreshCachedPages(changed)).rejects.toThrow('CACHE_REFRESH_URL must be an http(s) origin');
  });
});
