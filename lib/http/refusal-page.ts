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
  return new Response(html, {
    status,
    headers: { ...siteHeaders(configuredServices()), 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}
