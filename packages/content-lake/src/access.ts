/**
 * Who may use the lake, and how browsers reach it. Two kinds:
 *
 * - `local`: the embedded lake in the site's own server, an unauthenticated write API on an editor's
 *   machine. It answers only a browser (or program) on this machine talking to the server directly, and
 *   refuses what a hostile page in that browser could send: a request from another address or through a
 *   proxy, a Host that is not this machine's loopback name (DNS rebinding: evil.example resolving to
 *   127.0.0.1), and an Origin other than the site's own on this port. Whoever passes is the editor.
 * - `token`: the lake playing Sanity's hosted API: a request with the token is signed in, one without reads
 *   published content only, and browsers are answered from the project's CORS origins.
 *
 * Browsers open at most six HTTP/1.1 connections per host, for every tab together, and the Studio holds
 * about seven listener streams per open document. So a browser's stream to a `local` lake is redirected
 * to a name of its own under `localhost` (l-<random>.localhost, which browsers resolve to this machine and
 * pool apart): each stream then has its own connection and leaves the site's six to requests.
 */
import { LakeError, httpError, newId } from './errors.ts';
import type { User } from './project-api.ts';

/**
 * `token` signs in as the lake's `user`; each of `users`' tokens signs in as the user it maps to, so a
 * test can hold several editors with different roles (what /users/me answers for each).
 */
export type Access = { kind: 'local' } | { kind: 'token'; token?: string; users?: Record<string, User>; allowedOrigins?: string[] };
/** Who sent a request: the site's own server code, or an HTTP client at this address (through a proxy or not). */
export type Caller = { internal: true } | { internal?: false; address: string | undefined; throughProxy: boolean };
/** `user`: who the request's token names, when it is one of `users`' rather than the lake's own. */
export type Admission = { authenticated: boolean; cors: Record<string, string>; user?: User };

const DEFAULT_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*', 'http://*.localhost:*'];
/** The names a browser's streams to a `local` lake are sent to (streamRedirect): the site itself, on its port. */
export const STREAM_HOST = /^l-[a-z0-9]+\.localhost$/;

export const isLoopbackAddress = (address: string | undefined) =>
  address !== undefined && /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/.test(address);
export const isLoopbackName = (hostname: string) =>
  hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === '[::1]';

const wildcard = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  );

function hostOf(request: Request): URL | undefined {
  const host = request.headers.get('host');
  return host ? (URL.parse(`http://${host}`) ?? undefined) : undefined;
}

/** The origins a `local` lake answers: this machine's loopback names on the port the request came to. */
function localOriginAllowed(origin: string, host: URL | undefined): boolean {
  const url = URL.parse(origin);
  return (
    !!url && !!host && (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackName(url.hostname) && url.port === host.port
  );
}

export function originAllowed(access: Access, request: Request, origin: string): boolean {
  if (access.kind === 'local') return localOriginAllowed(origin, hostOf(request));
  return (access.allowedOrigins ?? DEFAULT_ORIGINS).some((pattern) => wildcard(pattern).test(origin));
}

export function corsHeaders(access: Access, request: Request): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null || !originAllowed(access, request, origin)) return {};
  return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
}

const forbidden = (message: string) => httpError(403, 'Forbidden', message);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Lets the request in, signed in or not, or throws the refusal. */
export function admit(access: Access, request: Request, caller: Caller): Admission {
  const cors = corsHeaders(access, request);
  if (caller.internal) return { authenticated: true, cors };
  const origin = request.headers.get('origin');
  if (access.kind === 'token') {
    if (origin !== null && !cors['access-control-allow-origin'])
      throw forbidden(`Origin ${origin} is not allowed; add it to the project's CORS origins`);
    return { ...tokenAdmission(access, request), cors };
  }
  if (!isLoopbackAddress(caller.address) || caller.throughProxy)
    throw forbidden('The local Content Lake answers only a browser on the machine that runs the site, talking to it directly.');
  const host = hostOf(request);
  if (!host || !isLoopbackName(host.hostname))
    throw forbidden(`The local Content Lake answers only at this machine's own names, not at ${host?.host ?? 'no Host'}.`);
  if (origin !== null && !cors['access-control-allow-origin']) throw forbidden(`Origin ${origin} may not use the local Content Lake.`);
  if (WRITES.has(request.method) && origin === null && request.headers.get('sec-fetch-site') === 'cross-site')
    throw forbidden('Writes from another site are refused.');
  return { authenticated: true, cors };
}

function tokenAdmission(
  access: { token?: string; users?: Record<string, User> },
  request: Request,
): { authenticated: boolean; user?: User } {
  const header = request.headers.get('authorization');
  if (header === null) return { authenticated: false };
  const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
  if (access.token !== undefined && token === access.token) return { authenticated: true };
  const user = token !== undefined && access.users && Object.hasOwn(access.users, token) ? access.users[token] : undefined;
  if (user) return { authenticated: true, user };
  throw httpError(401, 'Unauthorized', 'Session not found');
}

/** For a browser's stream to a `local` lake not yet on a name of its own: where to send it instead. */
export function streamRedirect(access: Access, request: Request): Response | undefined {
  const host = hostOf(request);
  if (access.kind !== 'local' || !host || STREAM_HOST.test(host.hostname) || request.headers.get('sec-fetch-mode') === null)
    return undefined;
  const target = new URL(request.url);
  target.hostname = `l-${newId(6).toLowerCase()}.localhost`;
  target.port = host.port;
  // With its CORS headers: a browser follows a cross-origin redirect only if the redirect passes the CORS check.
  return new Response(null, {
    status: 307,
    headers: { ...corsHeaders(access, request), location: target.href, 'cache-control': 'no-store' },
  });
}

export { LakeError };
