import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { DIRECT_HEADER } from '@/lib/http/trust-proxy';
import { BACK_OFFICE_PATH, noticeCsvPath, officePath, type OfficeEndpoint } from '@/lib/shared/back-office';
import * as store from '@/lib/store/back-office';

import { GET, POST } from '@/app/api/back-office/[...path]/route';
import { HMAC_KEY_FILE } from './address-hmac';

/**
 * The back office's route, on the embedded path, with the store's functions stood in for (their SQL has
 * tests of its own): what reaches a browser, and that none of it can be kept by a cache.
 */

vi.mock('@/lib/store/back-office', () => ({
  MAX_PAGE_ROWS: 500,
  accessLog: vi.fn(),
  erasePerson: vi.fn(),
  findSubscriber: vi.fn(),
  listRequests: vi.fn(),
  logAccess: vi.fn(),
  markRequest: vi.fn(),
  noticeRecipients: vi.fn(),
  noticeVersions: vi.fn(),
  personData: vi.fn(),
  subscriberCounts: vi.fn(),
  wasTold: vi.fn(),
}));
const mocked = vi.mocked(store);

const ADDRESS = 'Parent@Example.org';
const LOCAL = { host: 'localhost:3000', 'x-forwarded-for': '127.0.0.1', [DIRECT_HEADER]: '1' };
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'back-office-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));
beforeEach(() => {
  vi.resetAllMocks();
  vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', '');
  vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', '');
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', '');
  vi.stubEnv('BACK_OFFICE_HMAC_KEY', '');
  vi.stubEnv('DATA_DIR', dataDir);
});

function call(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const { method = init.body === undefined ? 'GET' : 'POST', body, headers = {} } = init;
  const request = new Request(`http://localhost:3000${url}`, {
    method,
    headers: { ...LOCAL, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const segments = url.slice(BACK_OFFICE_PATH.length + 1).split('/');
  return (method === 'GET' ? GET : POST)(request, { params: Promise.resolve({ path: segments }) });
}
const post = (endpoint: OfficeEndpoint, body: unknown, headers?: Record<string, string>) => call(officePath(endpoint), { body, headers });

const PERSON = {
  email: ADDRESS,
  requests: [],
  subscription: null,
  emails: [{ kind: 'notice', ref: '2026-01-01', status: 'sent', sentAt: null, createdAt: 'x' }],
};

describe('the back office API', () => {
  it('marks every answer private and no-store: data, refusals, failures and files alike', async () => {
    mocked.personData.mockResolvedValue(PERSON);
    mocked.noticeVersions.mockResolvedValue([]);
    const answers = [
      await call(officePath('me')),
      await post('person', { email: ADDRESS }),
      await post('person/export', { email: ADDRESS }),
      await call(officePath('me'), { headers: { 'x-forwarded-for': '203.0.113.7' } }),
      await call(`${BACK_OFFICE_PATH}/nothing-here`),
      await post('person', { email: 'not an address' }),
      await call(noticeCsvPath('2026-01-01')),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 403, 404, 400, 404]);
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('private, no-store');
  });

  it('answers me with the local editor, an administrator', async () => {
    expect(await (await call(officePath('me'))).json()).toEqual({ officer: { id: 'local-editor', name: 'Local editor' }, admin: true });
  });

  it('takes an address only in a JSON body: a form post, a GET or an oversized body is refused before the store is asked', async () => {
    const form = await post('person', 'email=a%40b.org', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect((await call(officePath('person'))).status).toBe(405);
    expect((await post('person', { email: ADDRESS, padding: 'x'.repeat(10_000) })).status).toBe(413);
    expect((await post('person', { email: ADDRESS, extra: 1 })).status).toBe(400);
    expect(mocked.personData).not.toHaveBeenCalled();
  });

  it("logs a read of one person's data by the address's HMAC, never the address, and keeps the key in a file only the server reads", async () => {
    mocked.personData.mockResolvedValue(PERSON);
    expect(await (await post('person', { email: ADDRESS })).json()).toEqual(PERSON);
    const [[entry]] = mocked.logAccess.mock.calls as [[Parameters<typeof store.logAccess>[0]]];
    expect(entry).toMatchObject({
      actor: 'Local editor (local-editor)',
      action: 'read',
      rows: 1,
      subject: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(entry).toLowerCase()).not.toContain(ADDRESS.toLowerCase());
    // The same person, however written: the same HMAC, from the same key.
    await post('person', { email: ` ${ADDRESS.toUpperCase()} ` });
    expect(mocked.logAccess.mock.calls[1]![0].subject).toBe(entry.subject);
    const key = path.join(dataDir, HMAC_KEY_FILE);
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    expect((await readFile(key, 'utf8')).trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers nothing held, and exports as a file named without the address', async () => {
    mocked.personData.mockResolvedValueOnce(null).mockResolvedValueOnce(PERSON);
    expect(await (await post('person', { email: ADDRESS })).json()).toEqual({ nothingHeld: true });
    const file = await post('person/export', { email: ADDRESS });
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(JSON.parse(await file.text())).toEqual(PERSON);
    expect(mocked.logAccess.mock.calls.map(([entry]) => [entry.action, entry.rows])).toEqual([
      ['read', 0],
      ['export', 1],
    ]);
  });

  it('waits for a sender to finish with the address before erasing, else answers 409 with the lease end', async () => {
    const rows = { subscribers: 1, tokens: 2, emails: 3, requests: 1, noticesKept: 2 };
    mocked.erasePerson.mockResolvedValueOnce({ kind: 'busy', until: 'soon' }).mockResolvedValueOnce({ kind: 'erased', rows });
    const erased = await post('person/erase', { email: ADDRESS });
    expect(await erased.json()).toEqual({ rows });
    expect(mocked.logAccess).toHaveBeenCalledWith(expect.objectContaining({ action: 'erase', rows: 7 }));
    mocked.erasePerson.mockResolvedValue({ kind: 'busy', until: '2026-01-01T00:00:05.000000Z' });
    const busy = await post('person/erase', { email: ADDRESS });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ busyUntil: '2026-01-01T00:00:05.000000Z' });
  });

  it("exports a version's recipients as CSV, an erased one without address, none read as a formula", async () => {
    mocked.noticeVersions.mockResolvedValue([{ date: '2026-01-01' } as store.NoticeVersion]);
    mocked.noticeRecipients.mockResolvedValue({
      rows: [
        { email: '=cmd@example.org', status: 'sent', sentAt: '2026-01-01T09:00:00.000000Z' },
        { email: null, status: 'sent', sentAt: '2026-01-01T09:00:01.000000Z' },
      ],
      next: null,
    });
    const csv = await call(noticeCsvPath('2026-01-01'));
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    // A byte-order mark first, so that a spreadsheet reads UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes).split('\r\n')).toEqual([
      'email,status,sent_at,erased',
      "'=cmd@example.org,sent,2026-01-01T09:00:00.000000Z,no",
      ',sent,2026-01-01T09:00:01.000000Z,yes',
      '',
    ]);
    expect(mocked.logAccess).toHaveBeenCalledWith(expect.objectContaining({ action: 'export-notices', rows: 2, subject: null }));
  });

  it('refuses a cursor the store does not recognise with 400, and hides a failing store behind a 503', async () => {
    const { CursorError } = await import('@/lib/store/page-cursor');
    mocked.listRequests.mockRejectedValueOnce(new CursorError()).mockRejectedValueOnce(new Error('connection refused at 10.0.0.5'));
    expect((await post('requests/list', { filter: {}, cursor: 'abc' })).status).toBe(400);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = await post('requests/list', { filter: { status: 'new' }, cursor: null });
    expect(failed.status).toBe(503);
    expect(JSON.stringify(await failed.json())).not.toContain('10.0.0.5');
  });

  it('refuses a hosted store without BACK_OFFICE_HMAC_KEY anything that names an address (503)', async () => {
    vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', 'https://project.supabase.co');
    vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', 'public');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mocked.personData.mockResolvedValue(PERSON);
    const refused = await post('person', { email: ADDRESS });
    expect(refused.status).toBe(503);
    expect((await refused.json()).message).toContain('BACK_OFFICE_HMAC_KEY');
  });
});
