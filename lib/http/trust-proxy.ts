import 'server-only';

import http from 'node:http';

import type { Caller } from '@school-site/content-lake';

import { resolveClientAddress } from './client-address';

const INSTALLED = Symbol.for('hallway.trustProxy');

/**
 * Set to "1" on a request that came straight from its client: it carried no proxy's header (Next adds X-Forwarded-Host and friends itself afterwards, so routes cannot tell). The
 * local Content Lake answers only such requests. Whatever a client sends under this name is dropped.
 */
export const DIRECT_HEADER = 'x-hallway-direct';
const PROXY_HEADERS = ['forwarded', 'via', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip'];

/**
 * Who sent `request`, as the server saw it before Next (installTrustProxy): the address it vouches for,
 * and whether a proxy was in between. What the local Content Lake's `local` access judges a caller by.
 */
export const callerOf = (request: Request): Caller => ({
  address: request.headers.get('x-forwarded-for') ?? undefined,
  throughProxy: request.headers.get(DIRECT_HEADER) !== '1',
});

/**
 * No proxy's header: a browser never sends one, and every proxy in front of the site adds at least
 * X-Forwarded-For (deploy/nginx.conf.template does, as Vercel and other platforms do). So with a proxy
 * declared, a request without one came to the app's port past it: an SSH tunnel to that port from a
 * member of the team. A proxy that forwards without any such header would pass for direct: use none.
 */
export const cameDirect = (headers: http.IncomingHttpHeaders) => !PROXY_HEADERS.some((name) => name in headers);

/**
 * Rewrites X-Forwarded-For on every incoming request to the one client address this server can vouch
 * for (see resolveClientAddress). Next only fills the header when a request lacks it, so on a bare
 * `next start` the client would otherwise choose its own rate-limit key. Next gives route code no
 * access to the socket, so this runs where the socket is: at the HTTP server, before Next sees the request.
 */
export function installTrustProxy(trustedHops: number): void {
  const proto = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the server as `this`
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const request = args[0] as http.IncomingMessage;
      if (cameDirect(request.headers)) request.headers[DIRECT_HEADER] = '1';
      else delete request.headers[DIRECT_HEADER];
      const header = request.headers['x-forwarded-for'];
      const forwarded = Array.isArray(header) ? header.join(',') : header;
      request.headers['x-forwarded-for'] = resolveClientAddress(forwarded, request.socket.remoteAddress, trustedHops);
      // The same claim under another name: nothing may read it.
      delete request.headers['x-real-ip'];
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof proto.emit;
}
