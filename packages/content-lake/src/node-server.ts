/**
 * The lake on its own Node server, playing Sanity's hosted API on a port of its own (the hosted build's
 * tests, `npm run dev:lake`, the measuring scripts), over HTTP/1.1, or HTTP/2 with TLS as Sanity serves
 * it when given a certificate. The embedded lake is served by the site's own server instead
 * (app/api/lake, lib/content/local-lake.ts).
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';

import { serve, type ServerOptions, type ServerRequest } from 'srvx';

import type { Caller } from './access.ts';
import type { SanityDocument } from './documents.ts';
import { createHandler } from './handler.ts';
import { Lake, type LakeOptions } from './lake.ts';
import type { MutationResult } from './mutations.ts';
import { Presence } from './presence.ts';

export type NodeLakeOptions = LakeOptions & { port?: number; host?: string; tls?: { cert: string; key: string } };

export type RunningLake = {
  /** http(s)://<host>:<port>, also the `apiHost` for @sanity/client (with useProjectHostname: false). */
  origin: string;
  apiHost: string;
  dataset: string;
  lake: Lake;
  documents(): SanityDocument[];
  /** As POST /data/mutate with the token: one transaction. */
  mutate(mutations: unknown[]): Promise<{ transactionId: string; results: MutationResult[] }>;
  /** Publishes drafts.<id> as <id>, as the publish action does. */
  publish(id: string): Promise<{ transactionId: string }>;
  replace(documents: SanityDocument[]): Promise<void>;
  syncTagOf(id: string): string;
  liveConnections(): number;
  stop(): Promise<void>;
};

export async function startContentLake(options: NodeLakeOptions): Promise<RunningLake> {
  const lake = await Lake.open(options);
  const handle = createHandler(lake);
  const host = options.host ?? '127.0.0.1';
  const serverOptions: ServerOptions = {
    fetch: (request: ServerRequest) => handle(request, { address: request.ip, throughProxy: false } satisfies Caller),
    port: options.port ?? 0,
    hostname: host,
    silent: true,
    gracefulShutdown: false,
  };
  if (options.tls) Object.assign(serverOptions, { tls: options.tls, node: { http2: true, allowHTTP1: true } });
  const server = serve(serverOptions);
  await server.ready();
  const presence = new Presence(options.user?.id ?? 'anonymous', options.access);
  const nodeServer = server.node!.server as http.Server;
  nodeServer.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!presence.upgrade(request, socket, head, { address: request.socket.remoteAddress, throughProxy: false })) socket.destroy();
  });
  const address = nodeServer.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const origin = `${options.tls ? 'https' : 'http'}://${host}:${port}`;
  return {
    origin,
    apiHost: origin,
    dataset: lake.datasetName,
    lake,
    documents: () => structuredClone([...lake.dataset.documents()]),
    mutate: (mutations) => lake.mutate(mutations),
    publish: (id) => lake.act([{ actionType: 'sanity.action.document.publish', draftId: `drafts.${id}`, publishedId: id }]),
    replace: (documents) => lake.replace(documents),
    syncTagOf: lake.queries.syncTagOf,
    liveConnections: () => lake.live.size(),
    async stop() {
      lake.close();
      presence.close();
      // An HTTP/1.1 server's idle keep-alive connections (an HTTP/2 server has none to close here).
      (nodeServer as Partial<http.Server>).closeAllConnections?.();
      await server.close(true);
    },
  };
}
