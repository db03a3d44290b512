import { once } from 'node:events';

import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

import { startContentLake, type ContentLake } from '../../../testkit/content-lake/server';
import { MAX_SOCKETS } from './presence';

/**
 * The Studio's presence socket (bifur's JSON-RPC 2.0 over a WebSocket) on the lake's own Node server:
 * two sockets, as two Studio tabs would open, see each other's announcements.
 */

const lakes: ContentLake[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((socket) => socket.terminate());
  await Promise.all(lakes.splice(0).map((lake) => lake.stop()));
});

async function lake() {
  const at = await startContentLake({ token: 'presence-token' });
  lakes.push(at);
  return at;
}

type Message = { jsonrpc?: string; id?: number; result?: unknown; method?: string; params?: { subscription?: string; result?: unknown } };

/** A socket to the lake's presence path, and every message it has received. */
async function connect(at: ContentLake) {
  const socket = new WebSocket(`${at.origin.replace('http', 'ws')}/v2022-06-30/socket/production`);
  sockets.push(socket);
  const messages: Message[] = [];
  socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as Message));
  await once(socket, 'open');
  let nextId = 0;
  const until = async (predicate: (message: Message) => boolean) => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no such message; got ${JSON.stringify(messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  /** Sends a request and waits for its answer. */
  const call = async (method: string, params: unknown = {}) => {
    const id = (nextId += 1);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return until((message) => message.id === id);
  };
  return { socket, messages, call, until };
}

describe('the presence socket', () => {
  it('answers 503 to a socket past MAX_SOCKETS open at once', async () => {
    const at = await lake();
    await Promise.all(Array.from({ length: MAX_SOCKETS }, () => connect(at)));
    const socket = new WebSocket(`${at.origin.replace('http', 'ws')}/v2022-06-30/socket/production`);
    socket.on('error', () => {});
    const [, response] = (await once(socket, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(response.statusCode).toBe(503);
  });

  it('refuses a socket from an origin the lake does not answer, as it refuses its requests', async () => {
    const at = await lake();
    const socket = new WebSocket(`${at.origin.replace('http', 'ws')}/v2022-06-30/socket/production`, { origin: 'http://evil.example' });
    // The refusal ends the connection: the socket reports it as an error too.
    socket.on('error', () => {});
    const [, response] = (await once(socket, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(response.statusCode).toBe(403);
  });

  it("answers a subscription with its id, and passes one socket's announcement to the other as state", async () => {
    const at = await lake();
    const first = await connect(at);
    const second = await connect(at);
    const subscribed = await second.call('presence_subscribe');
    expect(subscribed).toEqual({ jsonrpc: '2.0', id: 1, result: expect.any(String) });
    await first.call('presence_subscribe');

    const data = { sessionId: 'tab-1', locations: [{ type: 'document', documentId: 'post-1', path: ['title'] }] };
    expect(await first.call('presence_announce', { session: 'tab-1', data })).toEqual({ jsonrpc: '2.0', id: 2, result: null });
    const relayed = await second.until((message) => message.method === 'presence_subscription');
    expect(relayed).toEqual({
      jsonrpc: '2.0',
      method: 'presence_subscription',
      params: { subscription: subscribed.result, result: { type: 'state', i: 'lake-token-holder', m: data } },
    });
    // Not back to the one that announced.
    expect(first.messages.filter((message) => message.method === 'presence_subscription')).toEqual([]);
  });

  it('passes on roll calls and disconnects, and ignores what is not JSON', async () => {
    const at = await lake();
    const first = await connect(at);
    const second = await connect(at);
    await second.call('presence_subscribe');
    first.socket.send('not json');
    await first.call('presence_rollcall', { session: 'tab-1' });
    await first.call('presence_disconnect', { session: 'tab-1' });
    await second.until((message) => (message.params?.result as { type?: string } | undefined)?.type === 'disconnect');
    expect(second.messages.filter((message) => message.method).map((message) => message.params?.result)).toEqual([
      { type: 'rollCall', i: 'lake-token-holder', session: 'tab-1' },
      { type: 'disconnect', i: 'lake-token-holder', m: { session: 'tab-1' } },
    ]);
  });

  it('closes a socket that sends a message over 64 KiB, and refuses upgrades elsewhere', async () => {
    const at = await lake();
    const { socket } = await connect(at);
    const closed = once(socket, 'close');
    socket.send('x'.repeat(65 * 1024));
    expect((await closed)[0]).toBe(1009);

    const elsewhere = new WebSocket(`${at.origin.replace('http', 'ws')}/v2022-06-30/data/listen/production`);
    sockets.push(elsewhere);
    await expect(once(elsewhere, 'open')).rejects.toThrow();
  });
});
