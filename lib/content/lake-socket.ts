import 'server-only';

import http from 'node:http';
import type { Duplex } from 'node:stream';

import { LAKE_PATH } from '@school-site/content-lake';
import { cameDirect } from '@/lib/http/trust-proxy';

import { localLake } from './local-lake';

const INSTALLED = Symbol.for('hallway.lakeSocket');

/** Hands an upgrade to the presence socket, which refuses what the local lake would refuse as a request. */
async function upgrade(request: http.IncomingMessage, socket: Duplex, head: Buffer) {
  const caller = { address: request.socket.remoteAddress, throughProxy: !cameDirect(request.headers) };
  try {
    const { presence } = await localLake();
    if (presence.upgrade(request, socket, head, caller)) return;
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
  } catch {
    socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
  }
}

/**
 * The Studio's presence socket on the embedded default (/api/lake/v…/socket/:dataset). Next's route
 * handlers take no WebSocket, so this answers the upgrade where the socket is, at the HTTP server, before
 * Next sees it (as trust-proxy.ts does for requests); every other upgrade goes on to Next.
 */
export function installLakeSocket(): void {
  const proto = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the server as `this`
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    const request = args[0] as http.IncomingMessage | undefined;
    if (event === 'upgrade' && request?.url?.startsWith(`${LAKE_PATH}/`)) {
      void upgrade(request, args[1] as Duplex, args[2] as Buffer);
      return true;
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof proto.emit;
}
