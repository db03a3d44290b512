/**
 * The local Content Lake (packages/content-lake) playing Sanity's hosted API for the tests and scripts: the
 * dataset given, or read from `file`, kept in memory (the file is never written), a token that signs in,
 * and the CORS origins of a project. See packages/content-lake/src/node-server.ts.
 *
 *   const lake = await startContentLake({ file: 'seed/production.ndjson', token: 'lake-viewer-token' });
 *   const client = createClient({ projectId: 'lake', dataset: 'production', apiVersion: '2025-10-01',
 *     apiHost: lake.apiHost, useProjectHostname: false, useCdn: false });
 *   await lake.mutate([{ patch: { id: 'siteSettings', set: { productName: 'New' } } }]); // a live `message`
 *   await lake.stop();
 */
import { readFile } from 'node:fs/promises';

import { parseNdjson, type SanityDocument } from '@school-site/content-lake';
import { startContentLake as startNodeLake, type RunningLake } from '@school-site/content-lake';
import { userNamed } from '@school-site/content-lake';
import type { MutationResult } from '@school-site/content-lake';

export type { MutationResult, SanityDocument };
export type ContentLake = RunningLake;

export type ContentLakeOptions = {
  /** The dataset; else `file` (Sanity NDJSON, as `sanity dataset export` writes it); else empty. */
  documents?: SanityDocument[];
  file?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  dataset?: string;
  /** When set, a request naming another project (X-Sanity-Project-ID) is refused; else any is accepted. */
  projectId?: string;
  /** The token that authenticates (Authorization: Bearer …) as the token holder; any other token is refused with 401. */
  token?: string;
  /** More tokens, each signed in as a user of its own with these roles (what /users/me answers for it). */
  users?: Record<string, { id: string; name: string; roles: string[] }>;
  /** Origins the API answers browsers from; `*` matches within one part, as in http://localhost:*. */
  allowedOrigins?: string[];
  maxStreams?: number;
  heartbeatMs?: number;
  /** HTTP/2 over TLS, as Sanity serves its API. */
  tls?: { cert: string; key: string };
  /** After each write: the documents it changed, as they now are (a deleted one as it was), e.g. to send webhooks. */
  onCommit?: (changed: SanityDocument[]) => void;
};

/** Who the lake's own token signs in as: an administrator. */
export const TOKEN_HOLDER = { id: 'lake-token-holder', name: 'Token holder' } as const;

const usersOf = (users: ContentLakeOptions['users']) =>
  users && Object.fromEntries(Object.entries(users).map(([token, { id, name, roles }]) => [token, userNamed(id, name, roles)]));

export async function startContentLake(options: ContentLakeOptions = {}): Promise<ContentLake> {
  const documents = options.documents ?? (options.file ? parseNdjson(await readFile(options.file, 'utf8'), options.file) : []);
  const { onCommit } = options;
  return startNodeLake({
    documents,
    port: options.port,
    host: options.host,
    tls: options.tls,
    dataset: options.dataset,
    projectId: options.projectId,
    maxStreams: options.maxStreams,
    heartbeatMs: options.heartbeatMs,
    access: { kind: 'token', token: options.token, users: usersOf(options.users), allowedOrigins: options.allowedOrigins },
    user: userNamed(TOKEN_HOLDER.id, TOKEN_HOLDER.name),
    onCommit: onCommit && ((transaction) => onCommit(transaction.changes.map((change) => (change.after ?? change.before)!))),
  });
}
