import { NextResponse, type NextRequest } from 'next/server';

import { mayNamePage, mayNameVersion } from '@/lib/policy/policy-archive';
import { readBody } from '@school-site/guards';
import { notFoundPage, renderNotFoundPage } from '@/lib/cache/not-found-page';
import { notFoundResponse, refusalPage } from '@/lib/http/refusal-page';
import { REFUSALS } from '@/lib/http/refusals';
import {
  IN_LANGUAGE,
  isSitePath,
  LANGUAGE_NOT_FOUND_PAGE,
  linkResultPath,
  NOT_FOUND_HEADER,
  ROUTES,
  SITE_SEGMENTS,
  TO_NOT_FOUND,
  TOKEN_PARAM,
} from '@/lib/shared/public-pages';
import { isLinkResult } from '@/lib/forms/form-state';
import { isToken } from '@/lib/forms/validation';
import { mayServeLanguage } from '@/lib/shared/language-gate';
import { isLanguageTag } from '@/lib/shared/languages';

/**
 * Posts that Next's server-action handler would answer with a 500 get a plain 4xx page a person can
 * read instead: posts from another site or from no page at all, bodies over the size limit, and bodies
 * that do not parse. Two encodings reach an action from this site's pages: multipart/form-data (the
 * forms, with and without JavaScript) and text/plain (React's JSON encoding of an action's plain
 * arguments, which next-sanity's Live and Presentation callbacks send). Anything else is refused: Next
 * would feed it to its JSON decoder.
 *
 * The matcher sends only requests with a Content-Type or a Next-Action header here: every post that
 * could reach an action has one of them, and a page load has neither, so page loads never pay for this.
 * Paths with a trailing slash come here too: Next's own redirect for them carries no configured headers
 * (next.config.ts turns it off); this one gets them like any response.
 *
 * One post is meant to come from no page at all: a mail client's one-click unsubscribe (RFC 8058) to the
 * URL of the emails' List-Unsubscribe header. It reaches that one route, which reads and checks its body
 * itself, and no action: it carries no Next-Action header.
 */

/**
 * A page of one version of the privacy policy or of its changes (the day as it came, still percent-encoded),
 * or a page of their list (/page/<n>).
 */
const VERSION_PAGE = new RegExp(`^${ROUTES.versions}/([^/]+)(?:/changes|/([^/]+))?$`);
/** A page under /subscription: the two links' pages, and the answers they come to (lib/forms/form-state.ts). */
const SUBSCRIPTION_PAGE = new RegExp(`^${ROUTES.subscription}/([^/]+)$`);
const LINK_PAGES: ReadonlySet<string> = new Set([ROUTES.confirm, ROUTES.unsubscribe]);

/** A path's language prefix ("/es") and the path after it; none for the default language's paths. */
function splitLanguage(pathname: string): { prefix: string; path: string } {
  const [, first = '', ...rest] = pathname.split('/');
  if (!isLanguageTag(first)) return { prefix: '', path: pathname };
  return { prefix: `/${first}`, path: `/${rest.join('/')}` };
}

/** Next's cookie of draft mode: a preview's 404 is Next's, with the drafts' words. */
const DRAFT_MODE_COOKIE = '__prerender_bypass';

/**
 * The site's 404 page, rendered once, not per path: the copy Next keeps (not-found-page.ts), or, when none
 * is fresh, the page from Next itself, which renders it and keeps it for the next. Under a language the
 * site has only: a page under a segment that names none would render its layout to find that out.
 */
async function notFound(request: NextRequest, language = ''): Promise<Response> {
  // The client router's request (an RSC fetch) gets Next's own answer, in the form it asked for.
  const ownAnswer = request.cookies.has(DRAFT_MODE_COOKIE) || request.headers.has('rsc');
  const html = ownAnswer ? null : ((await notFoundPage(language)) ?? (language ? await renderNotFoundPage(language) : null));
  if (html !== null) return notFoundResponse(html);
  // The default language's page: also under a language whose own could not be had in time.
  const headers = new Headers(request.headers);
  headers.set(NOT_FOUND_HEADER, TO_NOT_FOUND);
  return NextResponse.next({ request: { headers } });
}

/** The site's own first segments: anything else first is a language's, or nothing. */
const OWN_SEGMENTS: ReadonlySet<string> = new Set(SITE_SEGMENTS);

/** Lowercase, as Next matches it: any other spelling is not an action to Next, and not one of our forms. */
const FORM_TYPE = 'multipart/form-data';
/** How React's client sends an action's arguments when none is a form or a file. */
const ACTION_ARGUMENTS_TYPE = 'text/plain';

/** The same check as Next's (Origin against X-Forwarded-Host, else Host). */
function fromThisSite(request: NextRequest): boolean {
  const origin = request.headers.get('origin');
  // Browsers send Origin with every POST; a post without one comes from no page on this site.
  if (origin === null || origin === 'null') return false;
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host');
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export async function proxy(request: NextRequest): Promise<Response> {
  // A plain URL: NextURL keeps a trailing slash it was given, which would redirect to itself.
  const url = new URL(request.url);
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) {
    // One leading slash, whatever came in: "//host" would send the browser to another site.
    url.pathname = `/${url.pathname.replace(/^\/+|\/+$/g, '')}`;
    return NextResponse.redirect(url, 308);
  }
  // A page is under a language's tag only where the site has that language (language-gate.ts).
  const first = url.pathname.split('/')[1] ?? '';
  if (!OWN_SEGMENTS.has(first) && !mayServeLanguage(first)) return notFound(request);
  // The same pages in another language are under its tag: the rules below read the path after it.
  const { prefix, path } = splitLanguage(url.pathname);
  // The render of a language's 404 page that renderNotFoundPage asks this server for (next.config.ts).
  if (path === `/${LANGUAGE_NOT_FOUND_PAGE}` && request.headers.get(NOT_FOUND_HEADER) === IN_LANGUAGE) return NextResponse.next();
  // Under a language, a path of no page gets the 404 in that language (the default language's such paths
  // never come here: the matcher leaves its pages' first segments to Next).
  const language = prefix.slice(1);
  if (language && !isSitePath(path)) return notFound(request, language);
  // Next keeps every path a page of a version renders, a 404 included, as a file of its cache: only days a
  // version could have reach those pages, so what visitors can make it keep stays bounded.
  const version = path === ROUTES.feed ? null : VERSION_PAGE.exec(path);
  if (version && !(version[1] === 'page' ? mayNamePage(version[2] ?? '') : mayNameVersion(version[1]!, new Date())))
    return notFound(request, language);
  // The same for the answers of the emails' links: six names, each prerendered.
  const answer = SUBSCRIPTION_PAGE.exec(path)?.[1];
  if (answer && !LINK_PAGES.has(path) && !isLinkResult(answer)) return notFound(request, language);
  // A link cut short in an email, or with no token: its answer at once, as a redirect that needs no
  // JavaScript (the page's own redirect comes after its first bytes, as a script).
  if (LINK_PAGES.has(path) && request.method !== 'POST' && !isToken(url.searchParams.get(TOKEN_PARAM) ?? ''))
    return NextResponse.redirect(new URL(`${prefix}${linkResultPath('invalid')}`, url), 303);
  if (request.method !== 'POST') return NextResponse.next();
  if (path === ROUTES.oneClick && !request.headers.has('next-action')) return NextResponse.next();
  if (!fromThisSite(request)) return refusalPage(REFUSALS.crossSite);

  const contentType = request.headers.get('content-type') ?? '';
  const isForm = contentType.startsWith(FORM_TYPE);
  const isActionArguments = request.headers.has('next-action') && contentType.startsWith(ACTION_ARGUMENTS_TYPE);
  if (!isForm && !isActionArguments) return refusalPage(REFUSALS.notAForm);

  // Next keeps its own copy of the body for the action; this reads the proxy's copy, up to the cap.
  const body = await readBody(request);
  if (!body.ok) return refusalPage(body.refusal === 'too-large' ? REFUSALS.tooLarge : REFUSALS.unreadable);
  const parses = isForm ? await parsesAsForm(body.bytes, contentType) : parsesAsActionArguments(body.bytes);
  if (!parses) return refusalPage(isForm ? REFUSALS.unreadable : REFUSALS.notAForm);
  return NextResponse.next();
}

async function parsesAsForm(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<boolean> {
  try {
    await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    return true;
  } catch {
    return false;
  }
}

/** React encodes an action's arguments as one JSON array; Next cannot apply anything else to an action. */
function parsesAsActionArguments(bytes: Uint8Array): boolean {
  try {
    return Array.isArray(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)));
  } catch {
    return false;
  }
}

export const config = {
  matcher: [
    { source: '/((?!_next/|api/).*)', has: [{ type: 'header', key: 'next-action' }] },
    { source: '/((?!_next/|api/).*)', has: [{ type: 'header', key: 'content-type' }] },
    { source: '/:path+/' },
    // Pages of the policy's versions and of the subscription's answers (above): cheap for the few who read them.
    { source: '/privacy/versions/:path+' },
    { source: '/subscription/:path' },
    // Every other first segment (a language's tag, or a made-up path): decided before any page renders.
    {
      source:
        '/((?!(?:_next|api|studio|support|privacy|subscription|share-image|_default)(?:/|$)|(?:sitemap\\.xml|robots\\.txt|icon\\.svg)$).+)',
    },
  ],
};
