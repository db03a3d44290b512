import { afterEach, describe, expect, it, vi } from 'vitest';

import { keepNotFoundPage, notFoundKeyLanguage, notFoundPage, RENDER_WAIT_MS } from './not-found-page';

/** The copy proxy.ts answers made-up paths with: kept from the page cache, and let through to Next only when stale. */

const page = (html: string) => ({ kind: 'APP_PAGE', html, status: 404 });
const fresh = async () => true;
const stale = async () => false;

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('school-site.not-found-pages')];
  vi.useRealTimers();
});

describe('the 404 page kept for the proxy', () => {
  it("knows the page cache's keys of the 404 pages, each language's, and no other page's", () => {
    expect(notFoundKeyLanguage('/route-cache/APP_PAGE/41da0ef9/$/_not-found')).toBe('');
    expect(notFoundKeyLanguage('/_not-found')).toBe('');
    expect(notFoundKeyLanguage('/route-cache/APP_PAGE/41da0ef9/$/es/missing')).toBe('es');
    expect(notFoundKeyLanguage('/ar/missing')).toBe('ar');
    for (const key of ['/route-cache/APP_PAGE/41da0ef9/$/_default', '/privacy/_not-found-x', '/_default/_not-found/x', '/es/missing/x'])
      expect(notFoundKeyLanguage(key), key).toBeNull();
  });

  it("keeps each language's page apart", async () => {
    keepNotFoundPage('', page('Page not found'), fresh);
    keepNotFoundPage('es', page('Página no encontrada'), fresh);
    expect(await notFoundPage()).toBe('Page not found');
    expect(await notFoundPage('es')).toBe('Página no encontrada');
    expect(await notFoundPage('ar')).toBeNull();
  });

  it('lets the first request through to Next, holds the others until its render is kept, then answers all from the copy', async () => {
    expect(await notFoundPage()).toBeNull();
    const waiting = [notFoundPage(), notFoundPage()];
    keepNotFoundPage('', page('<h1>Not found</h1>'), fresh);
    expect(await Promise.all(waiting)).toEqual(['<h1>Not found</h1>', '<h1>Not found</h1>']);
    expect(await notFoundPage()).toBe('<h1>Not found</h1>');
  });

  it('never answers with words whose tags expired: one request renders them again, the rest wait for it', async () => {
    keepNotFoundPage('', page('old words'), stale);
    expect(await notFoundPage()).toBeNull();
    const waiting = notFoundPage();
    keepNotFoundPage('', page('new words'), fresh);
    expect(await waiting).toBe('new words');
  });

  it('keeps only a page with its HTML', async () => {
    for (const value of [null, { kind: 'APP_ROUTE', html: 'x' }, { kind: 'APP_PAGE', html: '' }, { kind: 'APP_PAGE', html: {} }])
      keepNotFoundPage('', value, fresh);
    expect(await notFoundPage()).toBeNull();
  });

  it('waits for a render at most RENDER_WAIT_MS; after that the next request starts one of its own', async () => {
    vi.useFakeTimers();
    expect(await notFoundPage()).toBeNull();
    const waiting = notFoundPage();
    await vi.advanceTimersByTimeAsync(RENDER_WAIT_MS);
    expect(await waiting).toBeNull();
    expect(await notFoundPage()).toBeNull();
    const next = notFoundPage();
    keepNotFoundPage('', page('kept'), fresh);
    expect(await next).toBe('kept');
  });
});
