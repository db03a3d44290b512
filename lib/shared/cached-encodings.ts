/**
 * The Accept-Encoding of each copy nginx keeps of a page, compressed once (deploy/nginx.conf.template's
 * $enc). A publish's refresh asks for every one (lib/cache/cache-refresh.ts), or the copies it missed would
 * show the old page for a second more. Apart from lib/cache/cache-refresh.ts so that tests outside the app
 * (Playwright's) can read it without `server-only`.
 */
export const CACHED_ENCODINGS = ['br', 'gzip', 'identity'] as const;
