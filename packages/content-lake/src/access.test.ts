import { afterEach, describe, expect, it } from 'vitest';

import type { Access, Caller } from './access';
import type { SanityDocument } from './documents';
import { createHandler } from './handler';
import { Lake } from './lake';
import { userNamed } from './project-api';

/**
 * Who the lake answers, through its handler. A `local` lake is an unauthenticated write API on an
 * editor's machine: it must refuse what a hostile page in that editor's browser, or another machine, can
 * send. A `token` lake plays Sanity's hosted API: the token signs in, no token reads published content.
 */

const DOCUMENTS: SanityDocument[] = [
  { _id: 'post-1', _type: 'post', title: 'Published' },
  { _id: 'drafts.post-1', _type: 'post', title: 'Draft' },
  { _id: 'sanity-preview-url-secret.s1', _type: 'sanity.previewUrlSecret', secret: 'shh' },
];
const LOOPBACK: Caller = { address: '127.0.0.1', throughProxy: false };
const API = '/api/lake/v2025-02-19';
const QUERY = `${API}/data/query/production?query=${encodeURIComponent('*[_type == "post"].title')}&perspective=raw`;
const LISTEN = `${API}/data/listen/production?query=${encodeURIComponent('*[_type == "post"]')}&includeResult=false`;
const MUTATE = `${API}/data/mutate/production`;

const lakes: Lake[] = [];
afterEach(() => lakes.splice(0).forEach((lake) => lake.close()));

async function lakeWith(access: Access, documents = DOCUMENTS) {
  const lake = await Lake.open({ documents: structuredClone(documents), access });
  lakes.push(lake);
  const handle = createHandler(lake, '/api/lake');
  const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}, caller: Caller = LOOPBACK) =>
    handle(new Request(`http://localhost:3000${path}`, { ...init, headers: { host: 'localhost:3000', ...init.headers } }), caller);
  return { lake, call };
}

const write = (headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ mutations: [{ createOrReplace: { _id: 'post-2', _type: 'post', title: 'Written' } }] }),
});

async function expectForbidden(response: Response, reason: RegExp) {
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(reason) });
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
}

describe('a local lake', () => {
  it('answers a program on this machine talking to it directly, as the signed-in editor', async () => {
    const { call, lake } = await lakeWith({ kind: 'local' });
    expect(await (await call(QUERY)).json()).toMatchObject({ result: ['Published', 'Draft'] });
    expect((await call(MUTATE, write())).status).toBe(200);
    expect(lake.dataset.get('post-2')).toMatchObject({ title: 'Written' });
  });

  it.each([
    ['another machine', { address: '192.168.1.20', throughProxy: false }],
    ['an unknown address', { address: undefined, throughProxy: false }],
    ['a loopback address that came through a proxy', { address: '127.0.0.1', throughProxy: true }],
  ])('refuses %s', async (_, caller) => {
    const { call, lake } = await lakeWith({ kind: 'local' });
    await expectForbidden(await call(QUERY, {}, caller), /only a browser on the machine/);
    await expectForbidden(await call(MUTATE, write(), caller), /only a browser on the machine/);
    expect(lake.dataset.get('post-2')).toBeUndefined();
  });

  it('refuses a Host that is not one of this machine’s names (DNS rebinding)', async () => {
    const { call } = await lakeWith({ kind: 'local' });
    await expectForbidden(await call(QUERY, { headers: { host: 'evil.example:3000' } }), /not at evil\.example:3000/);
    await expectForbidden(await call(MUTATE, write({ host: 'evil.example:3000' })), /not at evil\.example:3000/);
  });

  it.each(['http://evil.example', 'http://localhost:3001', 'null', 'file://'])(
    'refuses the Origin %s, for a write and for its preflight',
    async (origin) => {
      const { call, lake } = await lakeWith({ kind: 'local' });
      await expectForbidden(await call(MUTATE, write({ origin })), /Origin/);
      const preflight = await call(MUTATE, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      await expectForbidden(preflight, /Origin/);
      expect(lake.dataset.get('post-2')).toBeUndefined();
    },
  );

  it('refuses a write another site sent without an Origin', async () => {
    const { call } = await lakeWith({ kind: 'local' });
    await expectForbidden(await call(MUTATE, write({ 'sec-fetch-site': 'cross-site' })), /another site/);
  });

  it('answers the site’s own origins on this port with that exact origin and credentials, never *', async () => {
    const { call } = await lakeWith({ kind: 'local' });
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000']) {
      const answer = await call(MUTATE, write({ origin }));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
      expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
      const preflight = await call(MUTATE, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(Object.fromEntries(preflight.headers)).toMatchObject({
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-headers': 'content-type',
      });
    }
  });
});

describe("a browser's stream to a local lake", () => {
  const BROWSER = { 'sec-fetch-mode': 'cors', accept: 'text/event-stream' };

  it('is sent to a host name of its own under localhost, on the same port, keeping the path and query', async () => {
    const { call } = await lakeWith({ kind: 'local' });
    for (const path of [LISTEN, `${API}/data/live/events/production?includeDrafts=true`]) {
      const answer = await call(path, { headers: BROWSER });
      expect(answer.status).toBe(307);
      const location = new URL(answer.headers.get('location')!);
      expect(location.hostname).toMatch(/^l-[a-z0-9]+\.localhost$/);
      expect(location.port).toBe('3000');
      expect(location.protocol).toBe('http:');
      expect(`${location.pathname}${location.search}`).toBe(path);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    const first = (await call(LISTEN, { headers: BROWSER })).headers.get('location');
    const second = (await call(LISTEN, { headers: BROWSER })).headers.get('location');
    expect(first).not.toBe(second);
  });

  it('lets a cross-origin page follow the redirect: the 307 carries its CORS headers', async () => {
    const { call } = await lakeWith({ kind: 'local' });
    const answer = await call(LISTEN, { headers: { ...BROWSER, origin: 'http://127.0.0.1:3000' } });
    expect(answer.status).toBe(307);
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('is answered where it is: already on a name of its own, or from a client that is not a browser', async () => {
    const { call } = await lakeWith({ kind: 'local' });
    const own = await call(LISTEN, { headers: { ...BROWSER, host: 'l-abc123.localhost:3000', origin: 'http://localhost:3000' } });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('text/event-stream');
    expect(own.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    await own.body!.cancel();
    const program = await call(LISTEN);
    expect(program.status).toBe(200);
    await program.body!.cancel();
  });
});

describe('a token lake', () => {
  const TOKEN = { authorization: 'Bearer the-token' };

  it('signs the token in, refuses a wrong one with 401, and shows requests without one published content only', async () => {
    const { call } = await lakeWith({ kind: 'token', token: 'the-token' });
    expect(await (await call(QUERY, { headers: TOKEN })).json()).toMatchObject({ result: ['Published', 'Draft'] });
    const wrong = await call(QUERY, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Session not found' });
    expect(await (await call(QUERY)).json()).toMatchObject({ result: ['Published'] });
    expect((await call(MUTATE, write())).status).toBe(403);
    expect((await call(MUTATE, write(TOKEN))).status).toBe(200);
  });

  it('shows no draft or system document to a request without the token, whichever endpoint it asks', async () => {
    const { call } = await lakeWith({ kind: 'token', token: 'the-token' });
    const ids = ['post-1', 'drafts.post-1', 'sanity-preview-url-secret.s1'];
    const read = async (path: string, headers: Record<string, string> = {}) => (await call(path, { headers })).text();
    const doc = `${API}/data/doc/production/${ids.join(',')}`;
    const history = `${API}/data/history/production/documents/${ids.join(',')}`;
    for (const path of [doc, history]) {
      const anonymous = await read(path);
      expect(anonymous).toContain('Published');
      expect(anonymous).not.toContain('Draft');
      expect(anonymous).not.toContain('shh');
      expect(await read(path, TOKEN)).toContain('Draft');
    }
    expect(await read(doc, TOKEN)).toContain('shh');
    // System documents are never part of the history, whoever asks.
    expect(await read(history, TOKEN)).not.toContain('shh');
    expect(await read(`${API}/data/export/production`)).not.toContain('Draft');
  });

  it('keeps a release and its versions from a request without the token, as drafts are, whatever it asks', async () => {
    const release = {
      _id: '_.releases.rNext',
      _type: 'system.release',
      name: 'rNext',
      state: 'scheduled',
      metadata: { title: 'Unannounced' },
    };
    const version = { _id: 'versions.rNext.post-1', _type: 'post', title: 'Release text' };
    const { call } = await lakeWith({ kind: 'token', token: 'the-token' }, [...DOCUMENTS, release, version]);
    const ids = ['post-1', release._id, version._id].join(',');
    const query = (text: string, perspective: string) =>
      `${API}/data/query/production?query=${encodeURIComponent(text)}&perspective=${perspective}`;
    for (const path of [
      `${API}/data/doc/production/${ids}`,
      `${API}/data/history/production/documents/${ids}`,
      `${API}/data/export/production`,
      query('*', 'raw'),
      query('*[_id == "post-1"]', 'rNext,drafts'),
      query('*[sanity::partOfRelease("rNext")]', 'raw'),
    ]) {
      const anonymous = await (await call(path)).text();
      expect(anonymous).not.toMatch(/Unannounced|Release text/);
      expect(await (await call(path, { headers: TOKEN })).text()).toMatch(/Unannounced|Release text/);
    }
  });

  it("signs each of `users`' tokens in as its own user, whose roles /users/me names", async () => {
    const users = { 'editor-token': userNamed('editor', 'An editor', ['editor']) };
    const { call } = await lakeWith({ kind: 'token', token: 'the-token', users });
    const me = (headers: Record<string, string> = {}) => call(`${API}/users/me`, { headers });
    expect(await (await me({ authorization: 'Bearer editor-token' })).json()).toMatchObject({
      id: 'editor',
      role: 'editor',
      roles: [{ name: 'editor', title: 'Editor' }],
    });
    expect(await (await call(QUERY, { headers: { authorization: 'Bearer editor-token' } })).json()).toMatchObject({
      result: ['Published', 'Draft'],
    });
    // The lake's own token signs in as the lake's user (none here); no token is nobody.
    expect(await (await me(TOKEN)).json()).toEqual({});
    expect(await (await me()).json()).toEqual({});
    expect((await me({ authorization: 'Bearer toString' })).status).toBe(401);
  });
});
