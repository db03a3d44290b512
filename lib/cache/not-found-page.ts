/**
 * The site's 404 page as the page cache last read or stored it, for proxy.ts to answer a made-up path
 * with, in the process and at once: a made-up path then costs less than a page view (scanners send mostly
 * made-up paths). The page cache is where Next keeps the page and where a publish reaches it (its tags
 * expire), so the copy here is the page Next would serve.
 *
 * While no fresh copy is kept (at the start, and after a publish that changed the 404's words), one
 * request goes on to Next, which renders the page and stores it (and so keeps it here); requests that
 * come meanwhile wait for that copy, for at most RENDER_WAIT_MS, and never get the old words.
 *
 * State lives on globalThis: the page cache handler is loaded by Node unbundled and the proxy is a bundle
 * of its own, each with its own copy of this module. Only relative imports with real extensions.
 */

import { IN_LANGUAGE, LANGUAGE_NOT_FOUND_PAGE, NOT_FOUND_HEADER } from '../shared/public-pages.ts';

/** A copy of the page, and whether it is still the one Next would serve (no tag of it expired since). */
type Kept = { html: string; fresh: () => Promise<boolean> };
type State = { page?: Kept; rendering?: { done: Promise<void>; wake: () => void } };

/** One state per language the 404 page is in: '' for the default language's. */
const KEY = Symbol.for('school-site.not-found-pages');
const states = (): Map<string, State> =>
  ((globalThis as typeof globalThis & { [KEY]?: Map<string, State> })[KEY] ??= new Map<string, State>());
const state = (language: string): State => {
  const all = states();
  if (!all.has(language)) all.set(language, {});
  return all.get(language)!;
};

/**
 * How long a request waits for the render another request started, and how long that render may take
 * before the next request starts one of its own (a render Next could not store keeps nothing here).
 */
export const RENDER_WAIT_MS = 5_000;

/**
 * The language of the 404 page a page cache key names ('' for the default language's), or null for any
 * other page. In Next 16 the keys end "/$/_not-found", and "/$/<segment>/missing" for a language's own
 * (LANGUAGE_NOT_FOUND_PAGE).
 */
export function notFoundKeyLanguage(cacheKey: string): string | null {
  if (cacheKey === '/_not-found' || cacheKey.endsWith('/$/_not-found')) return '';
  return new RegExp(`(?:^|/\\$)/([^/]+)/${LANGUAGE_NOT_FOUND_PAGE}$`).exec(cacheKey)?.[1] ?? null;
}

/** Called by the page cache for each entry of a 404 page it reads or stores: a page with its HTML is kept. */
export function keepNotFoundPage(language: string, value: unknown, fresh: Kept['fresh']): void {
  const page = value as { kind?: unknown; html?: unknown } | null;
  if (page?.kind !== 'APP_PAGE' || typeof page.html !== 'string' || page.html === '') return;
  const current = state(language);
  current.page = { html: page.html, fresh };
  current.rendering?.wake();
}

/** The kept page's HTML while it is fresh; a page kept during the check is checked in its turn. */
async function freshPage(current: State): Promise<string | null> {
  for (let page = current.page; page;) {
    if (await page.fresh()) return page.html;
    if (current.page === page) return null;
    page = current.page;
  }
  return null;
}

/**
 * The 404 page's HTML in `language` ('' for the default language), fresh; or null when this request is
 * the one to let through to Next, which renders the page and stores it (and so keeps it here).
 */
export async function notFoundPage(language = ''): Promise<string | null> {
  const current = state(language);
  const kept = await freshPage(current);
  if (kept !== null) return kept;
  if (current.rendering) {
    await Promise.race([current.rendering.done, new Promise((resolve) => setTimeout(resolve, RENDER_WAIT_MS).unref())]);
    return freshPage(current);
  }
  let wake = () => {};
  const done = new Promise<void>((resolve) => (wake = resolve));
  const rendering = { done, wake };
  current.rendering = rendering;
  const timer = setTimeout(wake, RENDER_WAIT_MS);
  timer.unref();
  void done.then(() => {
    clearTimeout(timer);
    if (current.rendering === rendering) current.rendering = undefined;
  });
  return null;
}

/**
 * A language's 404 page, rendered now: asked of this server itself over the loopback, at the port Next
 * serves on (PORT, which next start and the standalone server set). The page answers 200 to that request
 * (a page cannot say 404 and still be kept as a page), the page cache keeps it, and visitors only ever
 * get it from here, as a 404. Called once a language's copy is missing or stale (at the start, after a
 * publish of its words); null when it cannot be had within RENDER_WAIT_MS.
 */
export async function renderNotFoundPage(language: string): Promise<string | null> {
  const port = process.env.PORT;
  if (!port) return null;
  try {
    const response = await fetch(`http://127.0.0.1:${port}/${language}/${LANGUAGE_NOT_FOUND_PAGE}`, {
      headers: { [NOT_FOUND_HEADER]: IN_LANGUAGE },
      signal: AbortSignal.timeout(RENDER_WAIT_MS),
    });
    return response.ok ? await response.text() : null;
  } catch {
    return null;
  }
}
