import { ROUTES } from '@/lib/public-pages';
import { configuredServices, siteHeaders } from '@/lib/security-headers';

import { refusalCopy } from './refusal-copy';
import type { Refusal } from './refusals';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Editor text goes into HTML written by hand here (no React to escape it). */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

/** A page a person can read, with the site's security headers like every other response. */
export async function refusalPage({ status, code }: Refusal): Promise<Response> {
  const copy = await refusalCopy();
  const message = escapeHtml(copy[code]);
  const html = [
    '<!doctype html><html lang="en"><meta charset="utf-8">',
    `<title>${message}</title>`,
    `<main><h1>${message}</h1><p><a href="${ROUTES.support}">${escapeHtml(copy.backToSupport)}</a></p></main>`,
    '</html>',
  ].join('');
  return new Response(html, {
    status,
    headers: { ...siteHeaders(configuredServices()), 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}
