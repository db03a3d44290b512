import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { SANITY_API_VERSION } from '@/lib/env/public';

import { createSanityClient } from './client';
import { queryDataset, type Perspective } from './embedded';
import { LANDING_PAGE_QUERY, PRIVACY_POLICY_QUERY, SETTINGS_QUERY, SUPPORT_PAGE_QUERY } from './queries';

/**
 * The hosted path with no network: the site's own client (real @sanity/client)
 * against a local server that answers Sanity's query endpoint by evaluating
 * the request's GROQ over the seed dataset. It checks that the client is
 * configured as Sanity expects (project, dataset, API version, perspective)
 * and that both sources answer the same queries alike.
 */

const SEED = path.resolve('content/production.ndjson');
const requests: URL[] = [];
let server: Server;
let apiHost: string;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(url);
    const match = url.pathname.match(/^\/v([\d-]+)\/data\/query\/([\w-]+)$/);
    if (!match || match[2] !== 'staging') {
      res.writeHead(404).end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    const params = Object.fromEntries(
      [...url.searchParams].filter(([key]) => key.startsWith('$')).map(([key, value]) => [key.slice(1), JSON.parse(value)]),
    );
    const perspective = (url.searchParams.get('perspective') ?? 'raw') as Perspective;
    const result = await queryDataset(SEED, url.searchParams.get('query') ?? '', params, perspective);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result, ms: 1, query: url.searchParams.get('query') }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiHost = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'abc123');
  vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', 'staging');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => server.close(resolve));
});

function hostedClient() {
  const client = createSanityClient();
  if (!client) throw new Error('expected a hosted client with the Sanity variables set');
  // Only the host changes: project, dataset, version and perspective are the site's own settings.
  return client.withConfig({ apiHost, useProjectHostname: false, useCdn: false, stega: false });
}

describe('hosted Sanity source', () => {
  it('is configured from the environment for the published perspective', () => {
    const config = createSanityClient()?.config();
    expect(config).toMatchObject({ projectId: 'abc123', dataset: 'staging', apiVersion: SANITY_API_VERSION, perspective: 'published', useCdn: true });
  });

  it.each([
    ['settings', SETTINGS_QUERY],
    ['landing page', LANDING_PAGE_QUERY],
    ['support page', SUPPORT_PAGE_QUERY],
    ['privacy policy', PRIVACY_POLICY_QUERY],
  ])('answers the %s query as the embedded source does', async (_, query) => {
    const hosted = await hostedClient().fetch(query);
    expect(hosted).not.toBeNull();
    expect(hosted).toEqual(await queryDataset(SEED, query, {}, 'published'));
    const sent = requests.at(-1)!;
    expect(sent.pathname).toBe(`/v${SANITY_API_VERSION}/data/query/staging`);
    expect(sent.searchParams.get('perspective')).toBe('published');
  });

  it('is null when no project is configured, so the embedded source is used', () => {
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', '');
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', '');
    expect(createSanityClient()).toBeNull();
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'abc123');
    expect(() => createSanityClient()).toThrow('NEXT_PUBLIC_SANITY_DATASET is not set');
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', 'staging');
  });
});
