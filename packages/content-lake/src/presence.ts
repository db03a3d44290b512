/**
 * The Studio's presence socket (/socket/:dataset, bifur's JSON-RPC 2.0 over a WebSocket): who else has
 * which document open. Each request is answered; announcements are passed on to every other socket of
 * the lake, so two tabs, or two editors on one machine, see each other. Without an answer here the Studio
 * retries the socket and logs each failure.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

import { WebSocketServer, type WebSocket } from 'ws';

import { admit, type Access, type Caller } from './access.ts';
import { newId } from './errors.ts';

const SOCKET_PATH = /\/v[^/]+\/socket\/[^/?]+(\?.*)?$/;
const MAX_MESSAGE = 64 * 1024;
/** Open sockets at most: a Studio tab holds one. */
export const MAX_SOCKETS = 200;

type Rpc = { id?: unknown; method?: unknown; params?: unknown };

export class Presence {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE });
  private readonly subscriptions = new Map<WebSocket, string>();
  private readonly userId: string;
  private readonly access: Access;

  constructor(userId: string, access: Access) {
    this.userId = userId;
    this.access = access;
  }

  /**
   * True when this upgrade request is the presence socket's, and is now handled: refused as the lake
   * would refuse it as a request (access.ts: the origin, and on a local lake the address and the host), or
   * accepted.
   */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, caller: Caller): boolean {
    if (!SOCKET_PATH.test(request.url ?? '')) return false;
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
    try {
      admit(this.access, new Request(`http://${request.headers.host ?? 'invalid'}${request.url}`, { headers }), caller);
    } catch {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return true;
    }
    if (this.server.clients.size >= MAX_SOCKETS) socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
    else this.server.handleUpgrade(request, socket, head, (ws) => this.connect(ws));
    return true;
  }

  close() {
    for (const ws of this.server.clients) ws.terminate();
    this.server.close();
  }

  private connect(ws: WebSocket) {
    ws.on('message', (data: Buffer) => this.receive(ws, data.toString('utf8')));
    ws.on('close', () => this.subscriptions.delete(ws));
    ws.on('error', () => ws.terminate());
  }

  private receive(ws: WebSocket, text: string) {
    let message: Rpc;
    try {
      message = JSON.parse(text) as Rpc;
    } catch {
      return;
    }
    const method = typeof message.method === 'string' ? message.method : '';
    let result: unknown = null;
    if (method.endsWith('_subscribe')) {
      result = newId(8);
      this.subscriptions.set(ws, result as string);
    } else if (method === 'presence_announce' || method === 'presence_disconnect' || method === 'presence_rollcall') {
      this.relay(ws, method, message.params);
    }
    if (message.id !== undefined) ws.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  }

  /** Passed on as the Studio reads presence events: {type, i: the user, …}. */
  private relay(from: WebSocket, method: string, params: unknown) {
    const { session, data } = (typeof params === 'object' && params !== null ? params : {}) as { session?: unknown; data?: unknown };
    const i = this.userId;
    const event =
      method === 'presence_rollcall'
        ? { type: 'rollCall', i, session }
        : method === 'presence_announce'
          ? { type: 'state', i, m: data }
          : { type: 'disconnect', i, m: { session } };
    for (const [ws, subscription] of this.subscriptions) {
      if (ws !== from)
        ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'presence_subscription', params: { subscription, result: event } }));
    }
  }
}
