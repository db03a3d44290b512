import { ROUTES } from '@/lib/shared/public-pages';
import { configuredServices, siteHeaders } from './security-headers';

import { BACK_TO_SUPPORT, type Refusal } from './refusals';

/** A page a person can read, with the site's security headers like every other response. */
export function refusalPage({ status, message }: Refusal): Response {
  const html = [
    '<!doctype html><html lang="en"><meta charset="utf-8">',
    `<title>${message}</title>`,
    `<main><h1>${message}</h1><p><a href="${ROUTES.support}">${BACK_TO_SUPPORT}</a></p></main>`,
    '</html>',
  ].join('');
  return htmlResponse(html, status, 'no-store');
}

/**
 * The site's 404 page as proxy.ts answers it (lib/cache/not-found-page.ts), with what Next sends with
 * its own 404: never stored by a cache in front, so made-up paths fill none.
 */
export const notFoundResponse = (html: string): Response =>
  htmlResponse(html, 404, 'private, no-cache, no-store, max-age=0, must-revalidate');

const htmlResponse = (html: string, status: number, cacheControl: string): Response =>
  new Response(html, {
    status,
    headers: { ...siteHeaders(configuredServices()), 'content-type': 'text/html; charset=utf-8', 'cache-control': cacheControl },
  });
