import { applyPatch } from 'mendoza';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { startContentLake, type ContentLake, type SanityDocument } from '../../../testkit/content-lake/server';
import { readSse, type SseEvent, type SseReader } from '../../../testkit/content-lake/sse';

/**
 * The listener (/data/listen) over real HTTP, read raw: the fields the Studio relies on (STUDIO-API.md,
 * "The listener's mutation events") and the options that change what a stream is sent.
 */

const TOKEN = 'listener-token';
const DOCUMENTS: SanityDocument[] = [
  { _id: 'post-1', _type: 'post', _rev: 'rev-1', title: 'First' },
  { _id: 'post-2', _type: 'post', _rev: 'rev-2', title: 'Second' },
  { _id: 'drafts.post-1', _type: 'post', _rev: 'rev-d1', title: 'First (draft)' },
  { _id: 'versions.rSpring.post-1', _type: 'post', _rev: 'rev-v1', title: 'First (spring)' },
  { _id: 'settings', _type: 'siteSettings', _rev: 'rev-s', productName: 'Corridor' },
];

const lakes: ContentLake[] = [];
const streams: SseReader[] = [];
afterEach(async () => {
  streams.splice(0).forEach((stream) => stream.close());
  await Promise.all(lakes.splice(0).map((lake) => lake.stop()));
});

async function lake(heartbeatMs = 60_000) {
  const at = await startContentLake({ documents: structuredClone(DOCUMENTS), token: TOKEN, heartbeatMs });
  lakes.push(at);
  return at;
}

/** A listener on `query`, with `options` as URL parameters, once it has been welcomed. */
async function listen(at: ContentLake, query: string, options: Record<string, string> = {}, token: string | null = TOKEN) {
  const search = new URLSearchParams({ query, ...options });
  const stream = await readSse(
    `${at.origin}/v2025-02-19/data/listen/production?${search}`,
    token === null ? {} : { authorization: `Bearer ${token}` },
  );
  streams.push(stream);
  expect(stream.response.status).toBe(200);
  await stream.until((event) => event.event === 'welcome');
  return stream;
}

async function mutate(at: ContentLake, mutations: unknown[], transactionId?: string) {
  const response = await fetch(`${at.origin}/v2025-02-19/data/mutate/production`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mutations, transactionId }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { transactionId: string }).transactionId;
}

const set = (id: string, fields: Record<string, unknown>) => ({ patch: { id, set: fields } });
const current = (at: ContentLake, id: string) => at.documents().find((doc) => doc._id === id);
type Mutation = Record<string, unknown> & { documentId: string; transactionId: string; previousRev?: string; resultRev: string };
const mutations = (stream: SseReader) => stream.events.filter((event) => event.event === 'mutation').map((event) => event.data as Mutation);

describe('the listener', () => {
  it('welcomes first, then sends one mutation event per changed document the query matches', async () => {
    const at = await lake();
    const stream = await listen(at, '*[_type == "post"]', { effectFormat: 'mendoza' });
    expect(stream.events[0]).toMatchObject({ event: 'welcome', data: { listenerName: expect.any(String) } });

    const before = current(at, 'post-1');
    await mutate(
      at,
      [set('post-1', { title: 'One' }), set('settings', { productName: 'Hall' }), set('post-2', { title: 'Two' })],
      'studio-tx-1',
    );
    await vi.waitFor(() => expect(mutations(stream)).toHaveLength(2));
    const after = current(at, 'post-1');
    expect(after).toMatchObject({ title: 'One', _rev: 'studio-tx-1' });
    expect(mutations(stream)[0]).toEqual({
      eventId: 'studio-tx-1#post-1',
      documentId: 'post-1',
      transactionId: 'studio-tx-1',
      transition: 'update',
      identity: expect.any(String),
      mutations: [{ createOrReplace: after }],
      previousRev: 'rev-1',
      resultRev: 'studio-tx-1',
      timestamp: expect.stringMatching(/Z$/),
      visibility: 'query',
      effects: { apply: expect.any(Array), revert: expect.any(Array) },
      result: after,
      // The settings document changed too, but is not this stream's: the counts add up for this stream.
      transactionTotalEvents: 2,
      transactionCurrentEvent: 1,
    });
    expect(mutations(stream)[1]).toMatchObject({ documentId: 'post-2', transactionTotalEvents: 2, transactionCurrentEvent: 2 });
    // Mendoza effects on the document without its _rev, as the Studio applies them: the change, not the whole document.
    const { apply, revert } = (mutations(stream)[0] as unknown as { effects: { apply: unknown[]; revert: unknown[] } }).effects;
    const content = (doc: SanityDocument | undefined) => ({ ...doc, _rev: undefined });
    expect(applyPatch(JSON.parse(JSON.stringify(content(before))), apply)).toEqual(JSON.parse(JSON.stringify(content(after))));
    expect(applyPatch(JSON.parse(JSON.stringify(content(after))), revert)).toEqual(JSON.parse(JSON.stringify(content(before))));
    expect(apply).toContain('One');
    expect(apply).not.toContain('post-1');
  });

  it("chains each document's revisions from event to event, through appear and disappear", async () => {
    const at = await lake();
    const stream = await listen(at, '*[_type == "post"]');
    await mutate(at, [set('post-1', { title: 'A' })]);
    await mutate(at, [set('post-1', { title: 'B' })]);
    await mutate(at, [{ create: { _id: 'post-3', _type: 'post', title: 'Third' } }]);
    const deletion = await mutate(at, [{ delete: { id: 'post-1' } }]);
    await vi.waitFor(() => expect(mutations(stream)).toHaveLength(4));
    const [a, b, appear, disappear] = mutations(stream);
    expect(b!.previousRev).toBe(a!.resultRev);
    expect(appear).toMatchObject({ transition: 'appear', resultRev: appear!.transactionId });
    expect(appear).not.toHaveProperty('previousRev');
    expect(disappear).toMatchObject({ transition: 'disappear', previousRev: b!.resultRev, resultRev: deletion });
    expect(disappear).not.toHaveProperty('result');
  });

  it('sends back-to-back transactions in the order they were committed', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ _id: `bulk-${i}`, _type: 'post', title: `Bulk ${i}` }));
    const at = await lake();
    await mutate(
      at,
      many.map((doc) => ({ create: doc })),
    );
    const stream = await listen(at, '*[_type == "post"]', { includeResult: 'false' });
    // Not awaited one by one: the second is committed while the first one's events are being matched.
    const first = at.mutate(many.map((doc) => set(doc._id, { title: 'Renamed' })));
    const second = at.mutate([set('bulk-39', { title: 'Renamed again' })]);
    const ids = [(await first).transactionId, (await second).transactionId];
    await vi.waitFor(() => expect(mutations(stream)).toHaveLength(41));
    expect(mutations(stream).map((event) => event.transactionId)).toEqual([...many.map(() => ids[0]), ids[1]]);
    const last = mutations(stream).filter((event) => event.documentId === 'bulk-39');
    expect(last[1]!.previousRev).toBe(last[0]!.resultRev);
  });

  it('leaves out the result and the mutations when asked to', async () => {
    const at = await lake();
    const stream = await listen(at, '*[_id == "post-1"]', { includeResult: 'false', includeMutations: 'false' });
    await mutate(at, [set('post-1', { title: 'Quiet' })]);
    await vi.waitFor(() => expect(mutations(stream)).toHaveLength(1));
    const [event] = mutations(stream);
    expect(event).toMatchObject({ documentId: 'post-1' });
    expect(event).not.toHaveProperty('result');
    expect(event).not.toHaveProperty('mutations');
    // And `effects` only for effectFormat=mendoza.
    expect(event).not.toHaveProperty('effects');
  });

  it('never tells a stream without the token about drafts; versions only with includeAllVersions', async () => {
    const at = await lake();
    const anonymous = await listen(at, '*[_type == "post"]', { includeAllVersions: 'true' }, null);
    const signedIn = await listen(at, '*[_type == "post"]');
    const everything = await listen(at, '*[_type == "post"]', { includeAllVersions: 'true' });
    await mutate(at, [set('drafts.post-1', { title: 'Draft edit' })]);
    await mutate(at, [set('versions.rSpring.post-1', { title: 'Spring edit' })]);
    await mutate(at, [set('post-2', { title: 'Published edit' })]);
    const ids = (stream: SseReader) => mutations(stream).map((event) => event.documentId);
    await vi.waitFor(() => expect(ids(everything)).toEqual(['drafts.post-1', 'versions.rSpring.post-1', 'post-2']));
    await vi.waitFor(() => expect(ids(signedIn)).toEqual(['drafts.post-1', 'post-2']));
    await vi.waitFor(() => expect(ids(anonymous)).toEqual(['post-2']));
  });

  it('sends a heartbeat comment every heartbeatMs', async () => {
    const at = await lake(50);
    const stream = await listen(at, '*');
    await vi.waitFor(() => expect(stream.events.filter((event) => event.comment === 'ping').length).toBeGreaterThanOrEqual(4));
    const pings = stream.events.filter((event: SseEvent) => event.comment === 'ping').map((event) => event.at);
    const gaps = pings.slice(1).map((at, index) => at - pings[index]!);
    for (const gap of gaps) expect(gap).toBeGreaterThan(25);

    const quiet = await listen(await lake(60_000), '*');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(quiet.events.filter((event) => event.comment !== undefined)).toEqual([]);
  });
});
