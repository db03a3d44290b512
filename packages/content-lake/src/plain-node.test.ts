import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

import { createClient, type MutationEvent, type SanityClient } from '@sanity/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHandler, Lake, userNamed, type LakeHandler } from '@school-site/content-lake';

/**
 * The lake as an outside project uses it: imported by its package name, its handler served from a plain
 * node:http server (the adapter below is README.md's example), and driven by @sanity/client as a site or
 * script would drive Sanity's hosted API: a query, a mutation, a publish action, a listener and the history.
 */

const TOKEN = 'plain-node-token';
const API_VERSION = '2025-10-01';
const SEED = [
  { _id: 'post-1', _type: 'post', title: 'First' },
  { _id: 'post-2', _type: 'post', title: 'Second' },
];

/** The lake's handler on node:http: the IncomingMessage as a web Request, the Response written back. */
function serve(handle: LakeHandler): Server {
  return createServer((req, res) => {
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream);
    // Node joins a request's repeated headers into one string: only set-cookie, a response header, stays a list.
    const init = { method: req.method, headers: req.headers as Record<string, string>, body, duplex: 'half' };
    const caller = { address: req.socket.remoteAddress, throughProxy: false };
    void handle(new Request(`http://${req.headers.host}${req.url}`, init), caller).then((response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) pipeline(Readable.fromWeb(response.body as NodeReadableStream), res, () => undefined);
      else res.end();
    });
  });
}

let dir: string;
let lake: Lake;
let server: Server;
let client: SanityClient;
/** The transactions this session made, in order: the history must list them. */
const made: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lake-plain-node-'));
  const file = path.join(dir, 'production.ndjson');
  await writeFile(file, SEED.map((doc) => `${JSON.stringify(doc)}\n`).join(''));
  lake = await Lake.open({
    file,
    access: { kind: 'token', token: TOKEN },
    projectId: 'plain',
    dataset: 'production',
    user: userNamed('token-holder', 'Token holder'),
  });
  server = serve(createHandler(lake));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = createClient({
    projectId: 'plain',
    dataset: 'production',
    apiHost: origin,
    useProjectHostname: false,
    apiVersion: API_VERSION,
    token: TOKEN,
    useCdn: false,
  });
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  lake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// One editing session, step by step: each test goes on from where the one before left the dataset.
describe('the lake on a plain node:http server, through @sanity/client', { timeout: 30_000 }, () => {
  it('answers a GROQ query with the seeded documents', async () => {
    expect(await client.fetch('*[_type == "post"] | order(_id) {_id, title}')).toEqual([
      { _id: 'post-1', title: 'First' },
      { _id: 'post-2', title: 'Second' },
    ]);
  });

  it('commits a mutation, and the draft it made is read back', async () => {
    const created = await client.create({ _id: 'drafts.x', _type: 'post', title: 'X' });
    expect(created).toMatchObject({ _id: 'drafts.x', title: 'X', _rev: expect.any(String) });
    made.push(created._rev);
    expect(await client.getDocument('drafts.x')).toMatchObject({ _id: 'drafts.x', title: 'X', _rev: created._rev });
    expect(await client.fetch('count(*[_id == "drafts.x"])', {}, { perspective: 'raw' })).toBe(1);
  });

  it('publishes the draft with the publish action', async () => {
    const { transactionId } = await client.action({
      actionType: 'sanity.action.document.publish',
      draftId: 'drafts.x',
      publishedId: 'x',
    });
    made.push(transactionId);
    expect(await client.getDocument('x')).toMatchObject({ _id: 'x', title: 'X', _rev: transactionId });
    expect(await client.getDocument('drafts.x')).toBeUndefined();
    expect(await client.fetch('*[_id == "x"][0].title')).toBe('X');
  });

  it('tells a listener of a later change', async () => {
    const welcomed = Promise.withResolvers<void>();
    const changed = Promise.withResolvers<MutationEvent>();
    const subscription = client.listen('*[_id == "x"]', {}, { events: ['welcome', 'mutation'] }).subscribe({
      next: (event) => {
        if (event.type === 'welcome') welcomed.resolve();
        if (event.type === 'mutation') changed.resolve(event);
      },
      error: (error: unknown) => {
        welcomed.reject(error);
        changed.reject(error);
      },
    });
    try {
      await welcomed.promise;
      const patched = await client.patch('x').set({ title: 'X, patched' }).commit();
      made.push(patched._rev);
      expect(await changed.promise).toMatchObject({
        type: 'mutation',
        documentId: 'x',
        transactionId: patched._rev,
        transition: 'update',
        result: { _id: 'x', title: 'X, patched' },
      });
    } finally {
      subscription.unsubscribe();
    }
  });

  it("lists the session's transactions in the document's history, and a document as a revision left it", async () => {
    const [, published, last] = made;
    // Up to the last transaction: an answer that runs up to now leaves out the newest second (HISTORY_LAG_MS).
    const url = client.getUrl(client.getDataUrl('history', `transactions/x,drafts.x?toTransaction=${last}&effectFormat=mendoza`));
    const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const transactions = (await response.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(transactions.map((tx) => tx.id)).toEqual(made);
    expect(transactions.map((tx) => tx.documentIDs.toSorted())).toEqual([['drafts.x'], ['drafts.x', 'x'], ['x']]);
    for (const tx of transactions) expect(tx).toMatchObject({ author: 'token-holder', effects: expect.any(Object) });

    const revision = await client.request({ uri: client.getDataUrl('history', `documents/x?revision=${published}`) });
    expect(revision.documents).toEqual([expect.objectContaining({ _id: 'x', title: 'X', _rev: published })]);
  });
});
