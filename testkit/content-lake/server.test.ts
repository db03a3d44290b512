import { type ClientPerspective, createClient, CorsOriginError, type LiveEvent, type SanityClient } from '@sanity/client';
import { stegaClean } from '@sanity/client/stega';
import { validatePreviewUrl } from '@sanity/preview-url-secret';
import { createPreviewSecret } from '@sanity/preview-url-secret/create-secret';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { startContentLake, type ContentLake, type SanityDocument } from './server.ts';
import { readSse } from './sse.ts';

/**
 * The local Content Lake over real HTTP on 127.0.0.1, read and written by the real @sanity/client (as the
 * site, next-sanity's live API and draft mode use it) and, where the client hides the wire, by fetch.
 */

const TOKEN = 'lake-viewer-token';
const API = '2025-10-01';

const DOCUMENTS: SanityDocument[] = [
  { _id: 'siteSettings', _type: 'siteSettings', productName: 'Corridor' },
  { _id: 'drafts.siteSettings', _type: 'siteSettings', productName: 'Corridor (draft)' },
  { _id: 'versions.rSpring.siteSettings', _type: 'siteSettings', productName: 'Corridor (spring)' },
  { _id: 'landingPage', _type: 'landingPage', heading: 'Hello' },
  { _id: 'versions.rSpring.landingPage', _type: 'landingPage', heading: 'Gone', _system: { delete: true } },
  { _id: 'drafts.newsPost', _type: 'post', title: 'Only a draft' },
  { _id: 'post-1', _type: 'post', title: 'First' },
  { _id: 'sanity-preview-url-secret.abc', _type: 'sanity.previewUrlSecret', secret: 'old', _updatedAt: '2020-01-01T00:00:00Z' },
];

const lakes: ContentLake[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  cleanups.splice(0).forEach((cleanup) => cleanup());
  await Promise.all(lakes.splice(0).map((lake) => lake.stop()));
  vi.unstubAllGlobals();
});

async function lake(options: Parameters<typeof startContentLake>[0] = {}) {
  const started = await startContentLake({ documents: structuredClone(DOCUMENTS), token: TOKEN, heartbeatMs: 50, ...options });
  lakes.push(started);
  return started;
}

function clientOf(at: ContentLake, config: Parameters<typeof createClient>[0] = {}): SanityClient {
  return createClient({
    projectId: 'lake',
    dataset: 'production',
    apiVersion: API,
    apiHost: at.apiHost,
    useProjectHostname: false,
    useCdn: false,
    ...config,
  });
}

/** Every event of a subscription, kept for `until` to find. */
function collect(source: { subscribe(observer: { next(event: LiveEvent): void; error(error: unknown): void }): { unsubscribe(): void } }) {
  const events: (LiveEvent | { type: 'error'; error: unknown })[] = [];
  const subscription = source.subscribe({
    next: (event) => events.push(event),
    error: (error: unknown) => events.push({ type: 'error', error }),
  });
  cleanups.push(() => subscription.unsubscribe());
  const until = <T extends (typeof events)[number]>(predicate: (event: (typeof events)[number]) => event is T) =>
    vi.waitFor(() => events.find(predicate) ?? Promise.reject(new Error(`no such event yet in ${JSON.stringify(events)}`)), {
      timeout: 5_000,
      interval: 20,
    });
  return { events, until };
}
const isMessage = (event: { type: string }): event is Extract<LiveEvent, { type: 'message' }> => event.type === 'message';

/** A raw Server-Sent Events read, for what the client does not expose (ids, resuming, refusals); closed after the test. */
async function sse(url: string, headers: Record<string, string> = {}) {
  const stream = await readSse(url, headers);
  cleanups.push(() => stream.close());
  return stream;
}

describe('queries', () => {
  it('answers GET and POST with params, the shape @sanity/client reads with filterResponse: false', async () => {
    const at = await lake();
    const client = clientOf(at);
    const query = '*[_type == $type && title == $title]{_id, title}';
    const get = await client.fetch(query, { type: 'post', title: 'First' }, { filterResponse: false });
    expect(get).toMatchObject({ query, result: [{ _id: 'post-1', title: 'First' }], ms: expect.any(Number) });
    expect(get.syncTags).toContain(at.syncTagOf('post-1'));
    // A query string past the client's GET limit goes as POST {query, params}, the rest in the URL.
    const padding = 'x'.repeat(12_000);
    const post = await client.fetch(
      `*[_type == $type && $padding != ""][0].title`,
      { type: 'post', padding },
      { filterResponse: false, returnQuery: false },
    );
    expect(post).toEqual({ result: 'First', syncTags: expect.any(Array), ms: expect.any(Number) });
    const raw = await fetch(`${at.origin}/v${API}/data/query/production?perspective=published`, {
      method: 'POST',
      body: JSON.stringify({ query: 'count(*[_type == $t])', params: { t: 'post' } }),
    });
    expect(await raw.json()).toMatchObject({ result: 1 });
  });

  it('reads each perspective, a release stack included, and hides sub-path documents from requests without a token', async () => {
    const at = await lake();
    const reader = clientOf(at, { token: TOKEN });
    const names = (perspective: ClientPerspective, client = reader) =>
      client.fetch<{ _id: string; name: string | null }[]>(
        '*[_type in ["siteSettings", "landingPage", "post"]]{_id, "name": coalesce(productName, heading, title)} | order(_id)',
        {},
        { perspective },
      );
    expect(await names('published')).toEqual([
      { _id: 'landingPage', name: 'Hello' },
      { _id: 'post-1', name: 'First' },
      { _id: 'siteSettings', name: 'Corridor' },
    ]);
    expect(await names('drafts')).toEqual([
      { _id: 'landingPage', name: 'Hello' },
      { _id: 'newsPost', name: 'Only a draft' },
      { _id: 'post-1', name: 'First' },
      { _id: 'siteSettings', name: 'Corridor (draft)' },
    ]);
    // The spring release over drafts over published: its version wins, and it unpublishes the landing page.
    expect(await names(['rSpring', 'drafts'])).toEqual([
      { _id: 'newsPost', name: 'Only a draft' },
      { _id: 'post-1', name: 'First' },
      { _id: 'siteSettings', name: 'Corridor (spring)' },
    ]);
    expect(await names(['rSpring'])).toEqual([
      { _id: 'post-1', name: 'First' },
      { _id: 'siteSettings', name: 'Corridor (spring)' },
    ]);
    expect((await names('raw')).map((doc) => doc._id)).toEqual([
      'drafts.newsPost',
      'drafts.siteSettings',
      'landingPage',
      'post-1',
      'siteSettings',
      'versions.rSpring.landingPage',
      'versions.rSpring.siteSettings',
    ]);
    // Without a token: no refusal, but only the root path, so drafts and raw show published content.
    const anonymous = clientOf(at);
    expect(await names('drafts', anonymous)).toEqual(await names('published'));
    expect((await names('raw', anonymous)).map((doc) => doc._id)).toEqual(['landingPage', 'post-1', 'siteSettings']);
    expect(await anonymous.fetch('count(*[_type == "sanity.previewUrlSecret"])', {}, { perspective: 'raw' })).toBe(0);
  });

  it('defaults to published from API version 2025-02-19, to raw before, where versions do not exist', async () => {
    const at = await lake();
    const count = (apiVersion: string) => clientOf(at, { apiVersion, token: TOKEN }).fetch<number>('count(*[_type == "siteSettings"])');
    expect(await count('2025-02-19')).toBe(1);
    expect(await count('X')).toBe(1);
    expect(await count('2025-02-18')).toBe(2);
    const previewDrafts = await fetch(
      `${at.origin}/v${API}/data/query/production?query=*%5B_id%3D%3D%22siteSettings%22%5D%5B0%5D.productName&perspective=previewDrafts`,
      { headers: { authorization: `Bearer ${TOKEN}` } },
    );
    expect((await previewDrafts.json()).result).toBe('Corridor (draft)');
    const invalid = await fetch(`${at.origin}/v${API}/data/query/production?query=1&perspective=raw,drafts`);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ error: { type: 'httpBadRequest', description: expect.stringContaining('raw') } });
  });

  it('answers a GROQ syntax error, a missing or unquoted param with the queryParseError shape the client formats', async () => {
    const at = await lake();
    const broken = await fetch(`${at.origin}/v${API}/data/query/production?query=${encodeURIComponent('*[_type == ')}`);
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({
      error: {
        type: 'queryParseError',
        description: expect.any(String),
        query: '*[_type == ',
        start: expect.any(Number),
        end: expect.any(Number),
      },
    });
    await expect(clientOf(at).fetch('*[_type == "post" && title == $title]')).rejects.toThrow(
      /GROQ query parse error:[\s\S]*param \$title referenced, but not provided/,
    );
    const unquoted = await fetch(`${at.origin}/v${API}/data/query/production?query=$x&$x=bare`);
    expect(await unquoted.json()).toEqual({
      error: { type: 'httpBadRequest', description: 'Unable to parse value of "$x=bare". Please quote string values.' },
    });
  });

  it('maps each text of a result to its document and field (a Content Source Map), which stega encodes', async () => {
    const at = await lake({ documents: [...structuredClone(DOCUMENTS), { _id: 'faq', _type: 'faq', items: [{ _key: 'k1', q: 'Why?' }] }] });
    const client = clientOf(at, { stega: { enabled: true, studioUrl: '/studio' } });
    const title = await client.fetch<string>('*[_id == "post-1"][0].title');
    expect(title).not.toBe('First');
    expect(stegaClean(title)).toBe('First');

    const query = async (text: string, perspective = 'published') => {
      const answer = await fetch(
        `${at.origin}/v${API}/data/query/production?query=${encodeURIComponent(text)}&perspective=${perspective}&resultSourceMap=withKeyArraySelector&returnQuery=false`,
        { headers: { authorization: `Bearer ${TOKEN}` } },
      );
      return (await answer.json()) as { result: unknown; resultSourceMap: unknown };
    };
    const value = (document: number, path: number) => ({ type: 'value', source: { type: 'documentValue', document, path } });
    // Whole texts are mapped, made-up ones are not, and every text comes back as it was.
    expect(await query('*[_id == "post-1"][0]{title, "n": 1, "shout": title + "!"}')).toMatchObject({
      result: { title: 'First', n: 1, shout: 'First!' },
      resultSourceMap: { documents: [{ _id: 'post-1', _type: 'post' }], paths: ["$['title']"], mappings: { "$['title']": value(0, 0) } },
    });
    // Keyed array items are named by key; a draft is named by its own id, under the drafts perspective.
    expect(await query('*[_id == "faq"][0].items[0].q')).toMatchObject({
      result: 'Why?',
      resultSourceMap: { paths: ["$['items'][?(@._key=='k1')]['q']"], mappings: { $: value(0, 0) } },
    });
    expect(await query('*[_type == "siteSettings"][0].productName', 'drafts')).toMatchObject({
      result: 'Corridor (draft)',
      resultSourceMap: { documents: [{ _id: 'drafts.siteSettings', _type: 'siteSettings' }] },
    });
  });
});

describe('live events', () => {
  it('sends welcome, then a message whose tags meet the sync tags of the queries a write changes', async () => {
    const at = await lake();
    const client = clientOf(at);
    const live = collect(client.live.events());
    await live.until((event): event is LiveEvent => event.type === 'welcome');
    const settings = await client.fetch('*[_id == "siteSettings"][0]{productName}', {}, { filterResponse: false });
    const posts = await client.fetch('*[_type == "post"]{title}', {}, { filterResponse: false });

    await at.mutate([{ patch: { id: 'siteSettings', set: { productName: 'Renamed' } } }]);
    const first = await live.until(isMessage);
    expect(first.tags).toEqual(expect.arrayContaining([at.syncTagOf('siteSettings')]));
    expect(first.tags.filter((tag) => settings.syncTags!.includes(tag))).not.toHaveLength(0);
    // The posts query read nothing that changed: none of its tags.
    expect(first.tags.filter((tag) => posts.syncTags!.includes(tag))).toEqual([]);

    // A new post is a document that query never read, yet its answer changes: its tags are sent too.
    await at.mutate([{ create: { _id: 'post-2', _type: 'post', title: 'Second' } }]);
    await vi.waitFor(() => expect(live.events.filter(isMessage)).toHaveLength(2));
    const second = live.events.filter(isMessage)[1]!;
    expect(second.tags.filter((tag) => posts.syncTags!.includes(tag))).not.toHaveLength(0);
    expect(second.id).not.toBe(first.id);
  });

  it('refuses includeDrafts without a token; with one, draft writes reach drafts streams only', async () => {
    const at = await lake();
    const refused = await sse(`${at.origin}/v${API}/data/live/events/production?includeDrafts=true`);
    expect(refused.response.status).toBe(401);
    expect(await refused.response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const wrongToken = await sse(`${at.origin}/v${API}/data/live/events/production?includeDrafts=true`, { authorization: 'Bearer nope' });
    expect(wrongToken.response.status).toBe(401);
    const notSse = await fetch(`${at.origin}/v${API}/data/live/events/production`);
    expect(notSse.status).toBe(406);

    const drafts = collect(clientOf(at, { token: TOKEN }).live.events({ includeDrafts: true }));
    const published = collect(clientOf(at).live.events());
    await drafts.until((event): event is LiveEvent => event.type === 'welcome');
    await published.until((event): event is LiveEvent => event.type === 'welcome');
    await at.mutate([{ patch: { id: 'drafts.siteSettings', set: { productName: 'Draft edit' } } }]);
    const draftEvent = await drafts.until(isMessage);
    expect(draftEvent.tags).toContain(at.syncTagOf('siteSettings'));
    await at.publish('siteSettings');
    await vi.waitFor(() => expect(drafts.events.filter(isMessage)).toHaveLength(2));
    const publishedEvent = await published.until(isMessage);
    // The published-only stream's first message is the publish: it never saw the draft edit.
    expect(published.events.filter(isMessage)).toHaveLength(1);
    expect(publishedEvent.tags).toContain(at.syncTagOf('siteSettings'));
    expect(at.documents().find((doc) => doc._id === 'siteSettings')).toMatchObject({ productName: 'Draft edit' });
    expect(at.documents().some((doc) => doc._id === 'drafts.siteSettings')).toBe(false);
  });

  it('resumes from Last-Event-ID, restarts on an unknown position or a replaced dataset, and beats', async () => {
    const at = await lake();
    const url = `${at.origin}/v${API}/data/live/events/production`;
    const first = await sse(url);
    expect(first.response.headers.get('content-type')).toBe('text/event-stream');
    const welcome = await first.until((event) => event.event === 'welcome');
    expect(welcome.data).toEqual({});
    await first.until((event) => event.comment === 'ping');
    first.close();
    await at.mutate([{ patch: { id: 'post-1', set: { title: 'Missed' } } }]);

    const resumed = await sse(url, { 'last-event-id': welcome.id! });
    const missed = await resumed.until((event) => event.event === 'message');
    expect(missed.data).toEqual({ tags: expect.arrayContaining([at.syncTagOf('post-1')]) });
    // The browser polyfill sends the position as ?lastEventId=.
    const byQuery = await sse(`${url}?lastEventId=${encodeURIComponent(welcome.id!)}`);
    await byQuery.until((event) => event.event === 'message');
    const stale = await sse(url, { 'last-event-id': 'bm90LWEtcG9zaXRpb24' });
    await stale.until((event) => event.event === 'restart');

    await at.replace([{ _id: 'siteSettings', _type: 'siteSettings', productName: 'Fresh' }]);
    await resumed.until((event) => event.event === 'restart');
    const client = clientOf(at);
    expect(await client.fetch('count(*)')).toBe(1);
  });

  it('answers a stream past the connection limit with goaway', async () => {
    const at = await lake({ maxStreams: 1 });
    const url = `${at.origin}/v${API}/data/live/events/production`;
    await (await sse(url)).until((event) => event.event === 'welcome');
    const over = await sse(url);
    expect(await over.until((event) => event.event === 'goaway')).toMatchObject({ data: { reason: 'connection limit reached' } });
    expect(at.liveConnections()).toBe(1);
  });
});

describe('documents by id', () => {
  it('answers {documents, omitted} and needs the token for drafts', async () => {
    const at = await lake();
    const url = `${at.origin}/v${API}/data/doc/production/post-1,drafts.newsPost,missing`;
    expect(await (await fetch(url)).json()).toEqual({
      documents: [DOCUMENTS.find((doc) => doc._id === 'post-1')],
      omitted: [
        { id: 'drafts.newsPost', reason: 'permission' },
        { id: 'missing', reason: 'existence' },
      ],
    });
    const withToken = clientOf(at, { token: TOKEN });
    expect(await withToken.getDocuments(['drafts.newsPost', 'missing'])).toEqual([
      DOCUMENTS.find((doc) => doc._id === 'drafts.newsPost'),
      null,
    ]);
    expect(await withToken.getDocument('post-1')).toMatchObject({ title: 'First' });
  });
});

describe('writes', () => {
  it("mutates over HTTP with the token in Sanity's shapes, atomically, and refuses without it", async () => {
    const at = await lake();
    const editor = clientOf(at, { token: TOKEN });
    const created = await editor.create({ _id: 'post-2', _type: 'post', title: 'Second' });
    expect(created).toMatchObject({ _id: 'post-2', title: 'Second', _rev: expect.any(String), _createdAt: expect.stringMatching(/Z$/) });
    const result = await editor
      .transaction()
      .patch('post-2', (patch) =>
        patch
          .set({ title: 'Second!', 'meta.tags': ['a'] })
          .setIfMissing({ views: 0 })
          .inc({ views: 2 }),
      )
      .createOrReplace({ _id: 'post-3', _type: 'post', title: 'Third' })
      .delete('post-1')
      .commit();
    expect(result).toEqual({
      transactionId: expect.any(String),
      documentIds: ['post-2', 'post-3', 'post-1'],
      results: [
        { id: 'post-2', operation: 'update' },
        { id: 'post-3', operation: 'create' },
        { id: 'post-1', operation: 'delete' },
      ],
    });
    expect(await editor.getDocument('post-2')).toMatchObject({
      title: 'Second!',
      meta: { tags: ['a'] },
      views: 2,
      _rev: result.transactionId,
    });
    await editor.patch('post-2').unset(['meta.tags']).commit();
    expect((await editor.getDocument('post-2'))?.meta).toEqual({});

    // One failing mutation: nothing of the transaction is applied, and the error names why.
    const conflict = await fetch(`${at.origin}/v${API}/data/mutate/production`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mutations: [{ create: { _id: 'post-4', _type: 'post' } }, { create: { _id: 'post-2', _type: 'post' } }] }),
    });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({
      error: { type: 'mutationError', items: [{ error: { type: 'documentAlreadyExistsError' }, index: 1 }] },
    });
    expect(await editor.getDocument('post-4')).toBeUndefined();

    await expect(clientOf(at).create({ _type: 'post', title: 'Anonymous' })).rejects.toThrow(/Insufficient permissions/);
    await expect(clientOf(at, { token: 'nope' }).create({ _type: 'post' })).rejects.toMatchObject({ statusCode: 401 });
  });

  it('publishes a draft by the Actions API and in process, each a live message and an onCommit', async () => {
    const committed: string[][] = [];
    const at = await lake({ onCommit: (changed) => committed.push(changed.map((doc) => doc._id)) });
    const editor = clientOf(at, { token: TOKEN });
    const live = collect(clientOf(at).live.events());
    await live.until((event): event is LiveEvent => event.type === 'welcome');
    const answer = await editor.action({
      actionType: 'sanity.action.document.publish',
      draftId: 'drafts.newsPost',
      publishedId: 'newsPost',
    });
    expect(answer).toEqual({ transactionId: expect.any(String) });
    expect(await editor.getDocument('newsPost')).toMatchObject({ title: 'Only a draft', _rev: answer.transactionId });
    expect((await live.until(isMessage)).tags).toContain(at.syncTagOf('newsPost'));
    await expect(
      editor.action({ actionType: 'sanity.action.document.publish', draftId: 'drafts.newsPost', publishedId: 'newsPost' }),
    ).rejects.toThrow(/not found/);

    await at.mutate([{ createOrReplace: { _id: 'drafts.post-1', _type: 'post', title: 'Edited' } }]);
    await at.publish('post-1');
    expect(await clientOf(at).fetch('*[_id == "post-1"][0].title')).toBe('Edited');
    // The draft write is not for a published-only stream; the publish is.
    await vi.waitFor(() => expect(live.events.filter(isMessage)).toHaveLength(2));
    expect(committed).toEqual([['drafts.newsPost', 'newsPost'], ['drafts.post-1'], ['drafts.post-1', 'post-1']]);
  });

  it("passes draft mode's secret check (@sanity/preview-url-secret) for a fresh secret only", async () => {
    const at = await lake();
    const client = clientOf(at, { token: TOKEN });
    const url = (secret: string) =>
      `http://localhost:3000/api/draft-mode/enable?sanity-preview-secret=${secret}&sanity-preview-pathname=/support`;
    expect(await validatePreviewUrl(client, url('old'))).toMatchObject({ isValid: false });
    // As Presentation makes one: a transaction of createOrReplace and patch, then a delete by query of expired ones.
    const { secret } = await createPreviewSecret(client, 'test', '/studio', 'editor');
    expect(await validatePreviewUrl(client, url(secret))).toMatchObject({ isValid: true, redirectTo: '/support' });
    expect(at.documents().some((doc) => doc._id === 'sanity-preview-url-secret.abc')).toBe(false);
    await expect(validatePreviewUrl(clientOf(at, { token: 'nope' }), url(secret))).rejects.toThrow(/Session not found/);
  });
});

describe('HTTP', () => {
  it('answers preflights and allowed origins with CORS headers, and refuses other origins', async () => {
    const at = await lake({ allowedOrigins: ['http://localhost:*'] });
    const preflight = await fetch(`${at.origin}/v${API}/data/query/production`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries(preflight.headers)).toMatchObject({
      'access-control-allow-origin': 'http://localhost:3000',
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'authorization',
    });
    const query = await fetch(`${at.origin}/v${API}/data/query/production?query=1`, { headers: { origin: 'http://localhost:3000' } });
    expect(query.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const evil = await fetch(`${at.origin}/v${API}/data/query/production?query=1`, { headers: { origin: 'http://evil.test' } });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(
      (await fetch(`${at.origin}/v${API}/data/query/production`, { method: 'OPTIONS', headers: { origin: 'http://evil.test' } })).status,
    ).toBe(403);
  });

  it("lets live.events() from a refused origin end in the client's CorsOriginError", async () => {
    const at = await lake({ allowedOrigins: ['http://localhost:*'] });
    // A browser sends its Origin on the EventSource request and on the client's /check/cors probe.
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init: RequestInit = {}) =>
      realFetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), origin: 'http://evil.test' } }),
    );
    const refused = collect(clientOf(at, { headers: { origin: 'http://evil.test' } }).live.events());
    const failure = await refused.until((event): event is { type: 'error'; error: unknown } => event.type === 'error');
    expect(failure.error).toBeInstanceOf(CorsOriginError);
    const check = await realFetch(`${at.origin}/vX/check/cors`, { headers: { origin: 'http://localhost:5173' } });
    expect(await check.json()).toEqual({ result: { allowed: true, withCredentials: true } });
  });

  it("answers unknown paths, other datasets, oversized and garbage bodies in Sanity's error shape, and keeps serving", async () => {
    const at = await lake();
    for (const path of ['/', '/nope', `/v${API}/data/nope/production`, `/v${API}/data/query/production/extra`]) {
      const answer = await fetch(`${at.origin}${path}`);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
    }
    await expect(clientOf(at, { dataset: 'staging' }).fetch('1')).rejects.toThrow(/Dataset "staging" not found/);
    const huge = await fetch(`${at.origin}/v${API}/data/query/production`, {
      method: 'POST',
      body: JSON.stringify({ query: `"${'x'.repeat(1_100_000)}"` }),
    });
    expect(huge.status).toBe(413);
    const garbage = await fetch(`${at.origin}/v${API}/data/mutate/production`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: '{"mutations": [',
    });
    expect(garbage.status).toBe(400);
    const noMutations = await fetch(`${at.origin}/v${API}/data/mutate/production`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: '{"mutations": [{"frobnicate": {}}, null]}',
    });
    expect(await noMutations.json()).toMatchObject({ error: { type: 'mutationError' } });
    expect((await fetch(`${at.origin}/v${API}/data/doc/production/%E0`)).status).toBe(400);
    const wrongMethod = await fetch(`${at.origin}/v${API}/data/doc/production/post-1`, { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect(await clientOf(at).fetch('*[_id == "post-1"][0].title')).toBe('First');
  });
});
