import { readdirSync, readFileSync } from 'node:fs';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { officeApi, OfficeError } from '@/studio/back-office/api';
import words from '@/studio/back-office/words.en-US';

/**
 * The Studio's back office tool, without a browser: what its one API module sends (the token on the
 * hosted path only, addresses only in bodies, nothing the shared rules refuse) and how it reads the
 * server's refusals; and that every word its views ask for is in its bundle. (The tool driven in the
 * Studio: tests/e2e.)
 */

const saved: { blob: Blob; name: string }[] = [];
vi.mock('@/studio/back-office/download', async (original) => ({
  ...(await original<typeof import('@/studio/back-office/download')>()),
  saveBlob: (blob: Blob, name: string) => saved.push({ blob, name }),
}));

type Call = { url: string; init: RequestInit };
let calls: Call[];
let answer: () => Response;
const store = new Map<string, string>();

beforeEach(() => {
  calls = [];
  saved.length = 0;
  store.clear();
  answer = () => Response.json({ officer: { id: 'u1', name: 'Ada' }, admin: true });
  vi.stubGlobal('localStorage', { getItem: (key: string) => store.get(key) ?? null });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answer();
  });
});
afterEach(() => vi.unstubAllGlobals());

const headers = (call: Call) => new Headers(call.init.headers);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as OfficeError,
  );

describe('the back office API module', () => {
  it('sends no token on the embedded default: the server admits this machine', async () => {
    await officeApi({ hosted: false }).me();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/back-office/me');
    expect(headers(calls[0]!).get('Authorization')).toBeNull();
  });

  it('sends the Studio login’s token as a Bearer token with a project', async () => {
    store.set('__studio_auth_token_p1', JSON.stringify({ token: 'sk-editor' }));
    await officeApi({ hosted: true, projectId: 'p1' }).me();
    expect(headers(calls[0]!).get('Authorization')).toBe('Bearer sk-editor');
  });

  it('says a cookie-only session has no token, and asks nothing', async () => {
    const error = await failureOf(officeApi({ hosted: true, projectId: 'p1' }).me());
    expect(error).toBeInstanceOf(OfficeError);
    expect(error?.kind).toBe('no-token');
    expect(calls).toHaveLength(0);
  });

  it('puts an address in a POST body, never in the URL', async () => {
    answer = () => Response.json({ nothingHeld: true });
    await officeApi({ hosted: false }).person('Parent@Example.org');
    expect(calls[0]!.init.method).toBe('POST');
    expect(calls[0]!.url).toBe('/api/back-office/person');
    expect(calls[0]!.url).not.toContain('@');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ email: 'Parent@Example.org' });
  });

  it('refuses what the shared rules refuse before asking the server', async () => {
    const error = await failureOf(officeApi({ hosted: false }).erase('not an address'));
    expect(error?.kind).toBe('invalid');
    expect(calls).toHaveLength(0);
  });

  it.each([
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not-found'],
    [503, 'unavailable'],
    [500, 'failed'],
  ])('reads a %i as %s, with the server’s words', async (status, kind) => {
    answer = () => Response.json({ message: 'no' }, { status });
    const error = await failureOf(officeApi({ hosted: false }).notices());
    expect(error).toMatchObject({ kind, status, message: 'no' });
  });

  it('reads a 409 from an erase as busy, until when the server says', async () => {
    answer = () => Response.json({ message: 'sending', busyUntil: '2026-12-08T10:00:30.000Z' }, { status: 409 });
    const error = await failureOf(officeApi({ hosted: false }).erase('parent@example.org'));
    expect(error).toMatchObject({ kind: 'busy', busyUntil: '2026-12-08T10:00:30.000Z' });
  });

  it('downloads the CSV through fetch, with the token, under the server’s file name', async () => {
    store.set('__studio_auth_token_p1', JSON.stringify({ token: 'sk-editor' }));
    answer = () => new Response('email,status\n', { headers: { 'Content-Disposition': 'attachment; filename="notice-2026-12-01.csv"' } });
    await officeApi({ hosted: true, projectId: 'p1' }).noticeCsv('2026-12-01');
    expect(calls[0]!.url).toBe('/api/back-office/notices/2026-12-01/csv');
    expect(headers(calls[0]!).get('Authorization')).toBe('Bearer sk-editor');
    expect(saved.map(({ name }) => name)).toEqual(['notice-2026-12-01.csv']);
    expect(await saved[0]!.blob.text()).toBe('email,status\n');
  });
});

describe("the tool's words", () => {
  const dir = 'studio/back-office';
  const source = readdirSync(dir)
    .filter((file) => file.endsWith('.tsx') || file === 'api.ts')
    .map((file) => readFileSync(`${dir}/${file}`, 'utf8'))
    .join('\n');
  const keys = new Set(Object.keys(words).map((key) => key.replace(/_(one|other)$/, '')));

  it('has every key a view names', () => {
    const named = [...source.matchAll(/'((?:tool|tab|error|common|requests|subscribers|notices|person|log)\.[a-z.-]+)'/g)].map(
      ([, key]) => key!,
    );
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((key) => !keys.has(key))).toEqual([]);
  });

  it('has a tab for each view and words for each failure', () => {
    for (const tab of ['requests', 'subscribers', 'notices', 'person', 'access-log']) expect(keys).toContain(`tab.${tab}`);
    for (const kind of ['unauthorized', 'unavailable', 'not-found', 'network']) expect(keys).toContain(`error.${kind}`);
  });
});
