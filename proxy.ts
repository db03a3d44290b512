import { NextResponse, type NextRequest } from 'next/server';

/**
 * Form posts that Next's server-action handler would answer with a 500 get a plain 4xx page a person
 * can read instead: bodies over the size limit, posts from another site, bodies that are not form data.
 * The matcher limits this to multipart POSTs (both form submissions, with and without JavaScript),
 * so page loads never pass through here.
 */

// Four fields at their limits (254 + 200 + 5000 characters, up to 4 bytes each) stay far below this.
const MAX_BODY_BYTES = 64 * 1024;

function refuse(status: number, message: string): NextResponse {
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>${message}</title><main><h1>${message}</h1><p><a href="/support">Back to the support page</a></p></main></html>`;
  return new NextResponse(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  if (request.method !== 'POST') return NextResponse.next();

  // The same check as Next's (Origin against X-Forwarded-Host, else Host), answered with a 403 instead of a 500.
  const origin = request.headers.get('origin');
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host');
  if (origin !== null) {
    let originHost: string | null = null;
    try {
      originHost = origin === 'null' ? null : new URL(origin).host;
    } catch {}
    if (!originHost || originHost !== host) return refuse(403, 'This form can only be sent from this website.');
  }

  // Browsers always send a Content-Length with a form; without one the size is unknown until read.
  const length = request.headers.get('content-length');
  if (length === null || !/^\d+$/.test(length)) return refuse(411, 'Your request could not be read. Please try again.');
  if (Number(length) > MAX_BODY_BYTES) return refuse(413, 'Your request is too large. Please shorten it and try again.');
  try {
    await request.clone().formData();
  } catch {
    return refuse(400, 'Your request could not be read. Please try again.');
  }
  return NextResponse.next();
}

export const config = {
  matcher: [
    {
      source: '/((?!_next/|studio|api/).*)',
      has: [{ type: 'header', key: 'content-type', value: 'multipart/form-data.*' }],
    },
  ],
};
