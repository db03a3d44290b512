import { ROUTES } from '@/lib/public-pages';
import { configuredServices, siteHeaders } from '@/lib/security-headers';
import { UNREADABLE } from '@/lib/support/form-state';

/** What proxy.ts answers instead of letting Next's action handler fail with a 500. */
export const REFUSALS = {
  crossSite: { status: 403, message: 'This form can only be sent from this website.' },
  unreadable: { status: 400, message: UNREADABLE },
  notAForm: { status: 415, message: UNREADABLE },
  tooLarge: { status: 413, message: 'Your request is too large. Please shorten it and try again.' },
} as const;

export type Refusal = (typeof REFUSALS)[keyof typeof REFUSALS];

/** A page a person can read, with the site's security headers like every other response. */
export function refusalPage({ status, message }: Refusal): Response {
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>${message}</title><main><h1>${message}</h1><p><a href="${ROUTES.support}">Back to the support page</a></p></main></html>`;
  return new Response(html, {
    status,
    headers: { ...siteHeaders(configuredServices()), 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}
