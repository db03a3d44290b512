import 'server-only';

import type { OfficeFailure } from '@/lib/shared/back-office';

/**
 * How the back office answers. Every answer may hold personal data meant for one officer, now: no cache
 * may keep it, not the browser's, nginx's (deploy/: it stores no private or no-store answer, and /api/ is
 * never cached there) nor a CDN's. The route renders per request, outside the page cache and 'use cache'.
 */
export const NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'private, no-store', pragma: 'no-cache' };

export const answer = (body: unknown, status = 200) => Response.json(body, { status, headers: NO_STORE });

export const refuse = (status: number, message: string, extra: Omit<OfficeFailure, 'message'> = {}) =>
  answer({ message, ...extra } satisfies OfficeFailure, status);

/** A file to save: its name says what it is, never whom (the address stays out of the browser's downloads list). */
export const attachment = (body: string, type: string, filename: string) =>
  new Response(body, {
    headers: { ...NO_STORE, 'content-type': `${type}; charset=utf-8`, 'content-disposition': `attachment; filename="${filename}"` },
  });
