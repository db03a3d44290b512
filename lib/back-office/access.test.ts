import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { startContentLake, type ContentLake } from '@/testkit/content-lake/server.ts';
import { DIRECT_HEADER } from '@/lib/http/trust-proxy';

import { checkOfficeAccess } from './access';

/**
 * Who the back office admits. Embedded: the local lake's rule, judged on what the HTTP server recorded
 * before Next (trust-proxy.ts: the peer's address, and whether it came directly). Hosted: the editor's
 * Sanity token, asked of the Content Lake stand-in over HTTP as of Sanity's API (/users/me).
 */

const BACK_OFFICE = 'http://localhost:3000/api/back-office/me';

/** A request as the server hands it on: X-Forwarded-For rewritten to the peer, DIRECT_HEADER when no proxy was in between. */
function arriving({ address = '127.0.0.1', direct = true, host = 'localhost:3000', headers = {} } = {}) {
  return new Request(BACK_OFFICE, {
    headers: { host, 'x-forwarded-for': address, ...(direct ? { [DIRECT_HEADER]: '1' } : {}), ...headers },
  });
}

describe('the embedded back office', () => {
  beforeEach(() => {
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', '');
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', '');
  });

  it('admits a browser on this machine talking to the server directly, as the local editor and an administrator', async () => {
    expect(await checkOfficeAccess(arriving())).toEqual({ officer: { id: 'local-editor', name: 'Local editor' }, admin: true });
    expect(await checkOfficeAccess(arriving({ headers: { origin: 'http://localhost:3000' } }))).toMatchObject({ admin: true });
    expect(await checkOfficeAccess(arriving({ address: '::1', host: '127.0.0.1:3000' }))).toMatchObject({ admin: true });
    expect(await checkOfficeAccess(arriving({ headers: { 'sec-fetch-site': 'same-origin' } }))).toMatchObject({ admin: true });
    expect(await checkOfficeAccess(arriving({ headers: { 'sec-fetch-site': 'none' } }))).toMatchObject({ admin: true });
  });

  it.each([
    ['another machine', { address: '203.0.113.7' }],
    ['this machine through a proxy (nginx in front)', { direct: false }],
    ['a foreign Host resolving here (DNS rebinding)', { host: 'evil.example:3000' }],
    ['another origin', { headers: { origin: 'http://evil.example' } }],
    ['this machine on another port', { headers: { origin: 'http://localhost:4000' } }],
    ["another site's page, with no Origin (an image, a no-cors GET)", { headers: { 'sec-fetch-site': 'cross-site' } }],
    ["a page of this machine's on another port, with no Origin", { headers: { 'sec-fetch-site': 'same-site' } }],
  ])('refuses %s with 403', async (_, how) => {
    expect(await checkOfficeAccess(arriving(how))).toMatchObject({ status: 403, message: expect.stringContaining('SSH tunnel') });
  });
});

describe('the hosted back office', () => {
  const USERS = {
    'admin-token': { id: 'pAdmin', name: 'Ada Admin', roles: ['administrator'] },
    'admin-token-2': { id: 'pAdmin', name: 'Ada Admin', roles: ['administrator'] },
    'editor-token': { id: 'pEditor', name: 'Ed Editor', roles: ['editor'] },
    'editor-token-2': { id: 'pEditor', name: 'Ed Editor', roles: ['editor', 'viewer'] },
  };
  let lake: ContentLake;
  const asking = (token?: string) => new Request(BACK_OFFICE, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    lake = await startContentLake({ token: 'holder-token', users: USERS, projectId: 'lake' });
  });
  afterAll(() => lake.stop());
  beforeEach(() => {
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'lake');
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', lake.dataset);
    vi.stubEnv('SANITY_API_HOST', lake.origin);
    vi.stubEnv('BACK_OFFICE_ROLES', '');
  });

  it('refuses no token, and a token Sanity does not know, with 401', async () => {
    expect(await checkOfficeAccess(asking())).toMatchObject({ status: 401 });
    expect(await checkOfficeAccess(new Request(BACK_OFFICE, { headers: { authorization: 'Basic abc' } }))).toMatchObject({ status: 401 });
    expect(await checkOfficeAccess(asking('forged-token'))).toMatchObject({ status: 401 });
  });

  it('admits an administrator by the roles Sanity names (roles[].name), and refuses a role BACK_OFFICE_ROLES does not name with 403', async () => {
    expect(await checkOfficeAccess(asking('admin-token'))).toEqual({ officer: { id: 'pAdmin', name: 'Ada Admin' }, admin: true });
    expect(await checkOfficeAccess(asking('editor-token'))).toMatchObject({ status: 403 });
  });

  it('admits the roles BACK_OFFICE_ROLES names, an administrator only as one', async () => {
    vi.stubEnv('BACK_OFFICE_ROLES', 'editor, administrator');
    expect(await checkOfficeAccess(asking('editor-token-2'))).toEqual({ officer: { id: 'pEditor', name: 'Ed Editor' }, admin: false });
  });

  it('remembers an answer for a while without asking again; never an unreachable Sanity (503)', async () => {
    const stand = await startContentLake({ users: USERS, projectId: 'lake' });
    vi.stubEnv('SANITY_API_HOST', stand.origin);
    expect(await checkOfficeAccess(asking('admin-token-2'))).toMatchObject({ admin: true });
    await stand.stop();
    // Sanity is gone: the token asked about before is still known, a new one cannot be checked.
    expect(await checkOfficeAccess(asking('admin-token-2'))).toMatchObject({ admin: true });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await checkOfficeAccess(asking('editor-token'.repeat(2)))).toMatchObject({ status: 503 });
    expect(await checkOfficeAccess(asking('editor-token'.repeat(2)))).toMatchObject({ status: 503 });
  });
});

describe('an answer of /users/me that names no one', () => {
  let server: Server;
  let calls = 0;

  beforeAll(async () => {
    // A 200 with `{}`: what Sanity answers a request it does not sign in.
    server = createServer((request, response) => {
      if (request.url?.includes('/users/me')) calls += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'lake');
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', 'production');
    vi.stubEnv('SANITY_API_HOST', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('is a 401, not a 200 with no id, and is asked once', async () => {
    const request = () => new Request(BACK_OFFICE, { headers: { authorization: 'Bearer anonymous-token' } });
    expect(await checkOfficeAccess(request())).toMatchObject({ status: 401 });
    expect(await checkOfficeAccess(request())).toMatchObject({ status: 401 });
    expect(calls).toBe(1);
  });
});
