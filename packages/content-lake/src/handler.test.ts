import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Caller } from './access';
import { createHandler, type LakeHandler } from './handler';
import { Lake } from './lake';

/**
 * Hostile and broken requests to the embedded lake (a local lake over a real file), as a page or program
 * on the editor's machine could send them: each is answered with a 4xx in one of Sanity's error shapes,
 * never a 500, and the lake keeps serving the same content afterwards.
 */

const LOOPBACK: Caller = { address: '127.0.0.1', throughProxy: false };
const API = '/api/lake/v2025-02-19';
const SEED = '{"_id":"post-1","_type":"post","title":"First","_rev":"rev-1"}\n{"_id":"drafts.post-1","_type":"post","title":"Draft"}\n';

let dir: string;
let lake: Lake;
let handle: LakeHandler;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lake-hostile-'));
  await writeFile(path.join(dir, 'production.ndjson'), SEED);
  lake = await Lake.open({ file: path.join(dir, 'production.ndjson'), access: { kind: 'local' } });
  handle = createHandler(lake, '/api/lake');
});
afterEach(async () => {
  lake.close();
  await rm(dir, { recursive: true, force: true });
});

type Sent = { method?: string; path: string; body?: BodyInit; headers?: Record<string, string> };

async function send({ method = 'GET', path: target, body, headers = {} }: Sent) {
  const init: RequestInit & { duplex?: 'half' } = { method, headers: { host: 'localhost:3000', ...headers }, body };
  if (body instanceof ReadableStream) init.duplex = 'half';
  const response = await handle(new Request(`http://localhost:3000${target}`, init), LOOPBACK);
  // A stream that opened is left at once; anything else is read whole.
  const text = (response.headers.get('content-type') ?? '').includes('event-stream')
    ? (await response.body?.cancel(), '')
    : await response.text();
  return { status: response.status, text };
}

/** Sanity's two error shapes: the API gateway's, and the Content Lake's. */
function expectSanityError({ status, text }: { status: number; text: string }, expected?: number) {
  if (expected === undefined) {
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  } else expect(status).toBe(expected);
  const body = JSON.parse(text) as { statusCode?: unknown; error?: unknown; message?: unknown };
  if (typeof body.error === 'object') expect(body.error).toMatchObject({ type: expect.any(String), description: expect.any(String) });
  else expect(body).toEqual({ statusCode: status, error: expect.any(String), message: expect.any(String) });
}

const json = (method: string, target: string, body: unknown): Sent => ({
  method,
  path: target,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const mutate = (body: unknown) => json('POST', `${API}/data/mutate/production`, body);
const act = (body: unknown) => json('POST', `${API}/data/actions/production`, body);
const query = (text: string, extra = '') => ({ path: `${API}/data/query/production?query=${encodeURIComponent(text)}${extra}` });
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

async function expectUnchanged() {
  const answer = await send(query('*[_type == "post"]{_id, title}', '&perspective=raw'));
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.text).result).toEqual([
    { _id: 'post-1', title: 'First' },
    { _id: 'drafts.post-1', title: 'Draft' },
  ]);
}

describe('request bodies', () => {
  it('refuses a body over 1 MiB with 413, declared or chunked', async () => {
    const big = JSON.stringify({ mutations: [{ create: { _type: 'post', text: 'x'.repeat(1024 * 1024) } }] });
    expectSanityError(await send(mutate(big)), 413);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)));
        controller.close();
      },
    });
    expectSanityError(await send({ method: 'POST', path: `${API}/data/mutate/production`, body: chunked }), 413);
    expectSanityError(await send({ ...mutate('{}'), headers: { 'content-length': 'lots' } }), 400);
    await expectUnchanged();
  });

  it.each([
    ['invalid JSON', '{"mutations": ['],
    ['an empty body', ''],
    ['JSON that is an array', '[]'],
    ['JSON that is a string', '"mutations"'],
    ['JSON null', 'null'],
    ['no mutations', '{}'],
    ['mutations that are an object', '{"mutations": {"create": {"_type": "post"}}}'],
    ['mutations that are a string', '{"mutations": "create"}'],
    ['no mutation at all', '{"mutations": []}'],
    ['a mutation that is null', '{"mutations": [null]}'],
    ['an unknown mutation', '{"mutations": [{"frobnicate": {}}]}'],
  ])('refuses %s for mutate and actions', async (_, body) => {
    expectSanityError(await send(mutate(body)), 400);
    expectSanityError(await send(act(body.replace('mutations', 'actions'))), 400);
    await expectUnchanged();
  });

  it('refuses JSON nested 10,000 levels deep wherever it is, and keeps serving', async () => {
    const nested = deep(10_000);
    expectSanityError(await send(mutate(nested)));
    expectSanityError(await send(mutate(`{"mutations": [{"create": {"_id": "deep", "_type": "post", "deep": ${nested}}}]}`)));
    expectSanityError(await send(mutate(`{"mutations": [{"patch": {"id": "post-1", "set": {"deep": ${nested}}}}]}`)));
    const attributes = `{"_id": "drafts.deep", "_type": "post", "deep": ${nested}}`;
    expectSanityError(
      await send(act(`{"actions": [{"actionType": "sanity.action.document.create", "publishedId": "deep", "attributes": ${attributes}}]}`)),
    );
    expectSanityError(await send(json('POST', `${API}/data/query/production`, `{"query": "$p", "params": {"p": ${nested}}}`)));
    expectSanityError(await send(query('$p', `&$p=${encodeURIComponent(nested)}`)));
    expectSanityError(await send(query(nested)));
    await expectUnchanged();
  });

  it('takes a document nested as deep as a schema might go', async () => {
    const answer = await send(mutate(`{"mutations": [{"create": {"_id": "nested", "_type": "post", "deep": ${deep(60)}}}]}`));
    expect(answer.status).toBe(200);
    expect(JSON.stringify(lake.dataset.get('nested')?.deep)).toBe(deep(60));
  });
});

describe('actions', () => {
  // A valid action of each kind, on the seed's document: each field in turn gets a value of another type.
  const VALID: Record<string, Record<string, unknown>> = {
    create: { publishedId: 'new', attributes: { _id: 'drafts.new', _type: 'post' }, ifExists: 'fail' },
    edit: { draftId: 'drafts.post-1', publishedId: 'post-1', patch: { set: { title: 'x' } } },
    publish: { draftId: 'drafts.post-1', publishedId: 'post-1', ifDraftRevisionId: 'r', ifPublishedRevisionId: 'rev-1' },
    discard: { draftId: 'drafts.post-1' },
    unpublish: { draftId: 'drafts.post-1', publishedId: 'post-1' },
    delete: { publishedId: 'post-1', includeDrafts: ['drafts.post-1'] },
    replaceDraft: { publishedId: 'post-1', attributes: { _id: 'drafts.post-1', _type: 'post' } },
  };
  const OTHERS: unknown[] = [null, 7, true, 'text', [], {}, ['drafts.post-1', 7]];
  const kind = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);
  const cases = Object.entries(VALID).flatMap(([name, fields]) =>
    Object.entries(fields).flatMap(([field, valid]) =>
      OTHERS.filter((other) => kind(other) !== kind(valid)).map((other) => [name, field, other] as const),
    ),
  );

  it.each(cases)('refuses %s with a %s of %j with 400', async (name, field, other) => {
    const action = { actionType: `sanity.action.document.${name}`, ...VALID[name], [field]: other };
    expectSanityError(await send(act({ actions: [action] })), 400);
    await expectUnchanged();
  });

  it.each([
    ['a space', 'post 1'],
    ['unicode', 'pöst'],
    ['".."', 'a..b'],
    ['a leading "-"', '-post'],
    ['129 characters', 'p'.repeat(129)],
  ])('refuses an id with %s', async (_, id) => {
    const create = { actionType: 'sanity.action.document.create', publishedId: id, attributes: { _id: `drafts.${id}`, _type: 'post' } };
    expectSanityError(await send(act({ actions: [create] })), 400);
    expectSanityError(await send(mutate({ mutations: [{ create: { _id: id, _type: 'post' } }] })), 400);
    await expectUnchanged();
  });

  it.each([7, {}, ['a'], '', 'has space', 'x'.repeat(129), 'ä'])('refuses the transactionId %j', async (transactionId) => {
    expectSanityError(await send(mutate({ transactionId, mutations: [{ create: { _type: 'post' } }] })), 400);
    expectSanityError(await send(act({ transactionId, actions: [VALID.edit] })), 400);
    await expectUnchanged();
  });
});

describe('mutations', () => {
  it.each([
    ['set', 7],
    ['set', 'title'],
    ['unset', 'title'],
    ['unset', [7]],
    ['setIfMissing', []],
    ['inc', { title: 'one' }],
    ['dec', 7],
    ['insert', 7],
    ['insert', { after: 7, items: 7 }],
    ['diffMatchPatch', { title: 7 }],
    ['diffMatchPatch', 'garbage'],
    ['ifRevisionID', 7],
  ])('refuses a patch whose %s is %j with 400', async (operation, value) => {
    expectSanityError(await send(mutate({ mutations: [{ patch: { id: 'post-1', [operation]: value } }] })), 400);
    await expectUnchanged();
  });

  it.each([
    ['an _id that is not a string', { create: { _id: 7, _type: 'post' } }],
    ['a _type that is not a string', { create: { _id: 'p', _type: 7 } }],
    ['a selection that is neither id nor query', { patch: { id: 7, set: { title: 'x' } } }],
    ['a delete of nothing', { delete: {} }],
    ['params that are not an object', { patch: { query: '*[_id == $id]', params: 7, set: { title: 'x' } } }],
    ['a selection query with a syntax error', { delete: { query: '*[' } }],
  ])('refuses %s', async (_, mutation) => {
    expectSanityError(await send(mutate({ mutations: [mutation] })), 400);
    await expectUnchanged();
  });
});

describe('queries, streams and paths', () => {
  it.each([
    ['a GROQ syntax error', query('*[_type == ')],
    ['a missing param', query('*[_type == $type]')],
    ['an unquoted param', query('$x', '&$x=bare')],
    ['a param that is not JSON', query('$x', '&$x=%7B')],
    ['no query', { path: `${API}/data/query/production` }],
    ['an unknown perspective', query('1', '&perspective=everything%21')],
    ['raw with another perspective', query('1', '&perspective=raw,drafts')],
    ['a POST query that is not a string', json('POST', `${API}/data/query/production`, { query: 7 })],
    ['POST params that are an array', json('POST', `${API}/data/query/production`, { query: '1', params: [] })],
    [
      'a listen query of 16,001 characters',
      { path: `${API}/data/listen/production?query=${encodeURIComponent(`*[${'1'.repeat(15_998)}]`)}` },
    ],
    ['a listen query with a syntax error', { path: `${API}/data/listen/production?query=${encodeURIComponent('*[')}` }],
    ['a listen without a query', { path: `${API}/data/listen/production` }],
    ['an unknown endpoint', { path: `${API}/data/frobnicate/production` }],
    ['a path outside the API', { path: '/api/lake/nope' }],
    ['an API version that is not one', { path: '/api/lake/vlatest/data/query/production?query=1' }],
    ['another dataset', { path: `${API}/data/query/staging?query=1` }],
    ['a method the endpoint does not take', { method: 'DELETE', path: `${API}/data/query/production?query=1` }],
    ['GET on mutate', { path: `${API}/data/mutate/production` }],
    ['PUT on actions', json('PUT', `${API}/data/actions/production`, { actions: [] })],
    ['a document id that is not valid percent-encoding', { path: `${API}/data/doc/production/%E0` }],
    ['history of an id that is not valid percent-encoding', { path: `${API}/data/history/production/documents/%E0` }],
    ['history events of such an id', { path: `${API}/data/history/production/events/documents/%E0%A4%A` }],
    ['an unknown history endpoint', { path: `${API}/data/history/production/frobnicate` }],
  ])('answers %s with a 4xx', async (_, sent) => {
    expectSanityError(await send(sent));
    await expectUnchanged();
  });

  it('never answers 500 to a few hundred requests put together from broken pieces', async () => {
    const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
    const value = (): unknown =>
      pick([
        null,
        7,
        -1,
        'x',
        '',
        [],
        {},
        [null],
        JSON.parse(deep(90)),
        'drafts.post-1',
        'post-1',
        'a b',
        '*[_type == "post"]',
        { title: 'x' },
      ]);
    const mutation = () => ({
      [pick(['create', 'createOrReplace', 'createIfNotExists', 'patch', 'delete', 'x'])]: Object.fromEntries(
        ['_id', '_type', 'id', 'query', 'params', 'set', 'unset', 'inc', 'insert', 'diffMatchPatch', 'ifRevisionID']
          .filter(() => Math.random() < 0.4)
          .map((key) => [key, value()]),
      ),
    });
    const action = () => ({
      actionType: `sanity.action.document.${pick(['create', 'edit', 'publish', 'discard', 'unpublish', 'delete', 'replaceDraft', 'x'])}`,
      ...Object.fromEntries(
        ['draftId', 'publishedId', 'attributes', 'patch', 'ifExists', 'includeDrafts', 'ifPublishedRevisionId']
          .filter(() => Math.random() < 0.6)
          .map((key) => [key, value()]),
      ),
    });
    const broken = () => pick(['', 'null', '{', '[]', '{"mutations": [', `{"actions": ${deep(500)}}`]);
    const params = () =>
      pick(['', '&$p=1', '&$p=%5B', '&$=1', '&$p=%22a%22', '&perspective=rX,drafts', '&perspective=raw', '&returnQuery=false']);
    const queries = ['*', '*[', '$p', '*[_type == $p]', 'count(*)', '*[_id in path("**")]{...}', deep(300), 'dateTime("x")', '*|order('];
    // Each endpoint with the method it takes, mostly; now and then another.
    const requests: (() => Sent)[] = [
      () => mutate(Math.random() < 0.2 ? broken() : { mutations: [mutation(), mutation()], transactionId: pick([undefined, value()]) }),
      () => act(Math.random() < 0.2 ? broken() : { actions: [action(), action()], transactionId: pick([undefined, value()]) }),
      () => query(pick(queries), params()),
      () =>
        json('POST', `${API}/data/query/production${pick(['', '?perspective=drafts'])}`, {
          query: pick([...queries, value()]),
          params: value(),
        }),
      () => ({ path: `${API}/data/listen/production?query=${encodeURIComponent(pick(queries))}${params()}` }),
      () => ({ path: `${API}/data/live/events/production?includeDrafts=${pick(['true', 'x'])}`, headers: { accept: 'text/event-stream' } }),
      () => ({ path: `${API}/data/doc/production/${pick(['post-1,%E0', '%ZZ', ',', 'drafts.post-1,a%20b'])}` }),
      () => ({
        path: `${API}/data/history/production/${pick(['documents/%ZZ', 'events/documents/%E0', 'transactions/a', 'documents/', 'x'])}`,
      }),
      () => ({ path: `${API}/data/${pick(['export', 'references', 'nope'])}/${pick(['production', 'other', ''])}` }),
      () => json('PUT', `${API}/users/me/keyvalue`, Math.random() < 0.5 ? broken() : value()),
      () => ({
        method: pick(['PUT', 'DELETE', 'PATCH', 'HEAD']),
        path: `${API}/data/${pick(['query', 'mutate', 'actions', 'doc'])}/production`,
      }),
      () => ({
        method: 'OPTIONS',
        path: `${API}/data/mutate/production`,
        headers: { origin: pick(['http://localhost:3000', 'null', '%']) },
      }),
    ];
    const statuses = new Set<number>();
    for (let i = 0; i < 400; i += 1) {
      const sent = pick(requests)();
      const answer = await send(sent);
      statuses.add(answer.status);
      if (answer.status >= 500) throw new Error(`${answer.status} for ${JSON.stringify(sent).slice(0, 500)}: ${answer.text}`);
    }
    // The loop reached both answers and refusals.
    expect([...statuses].some((status) => status < 300)).toBe(true);
    expect([...statuses].some((status) => status >= 400)).toBe(true);
  });
});
