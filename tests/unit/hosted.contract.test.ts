import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { SANITY_API_VERSION } from '@/lib/env/public';
import { createHandler } from '@school-site/content-lake';
import { Lake } from '@school-site/content-lake';
import { LAKE_PATH } from '@school-site/content-lake';
import { createSanityClient } from '@/lib/content/client';
import { inProcessClient } from '@/lib/content/local-client';
import fixture from './fixtures/sanity-query-responses.json';
import { LANDING_PAGE_QUERY, POLICY_VERSIONS_QUERY, PRIVACY_POLICY_QUERY, SETTINGS_QUERY, SUPPORT_PAGE_QUERY } from '@/lib/content/queries';
import { startContentLake, type ContentLake } from '@/testkit/content-lake/server.ts';

/**
 * The hosted path with no network: the site's own client (real @sanity/client) against a local server
 * that answers Sanity's query endpoint with the answers in fixtures/sanity-query-responses.json, written
 * by hand from what Sanity returns. It checks that the client is configured as Sanity expects (project,
 * dataset, API version, perspective, the query text as the site wrote it), and that the embedded source
 * and the local Content Lake (testkit/content-lake, which the hosted builds and browser tests run on)
 * answer each query over the same documents exactly as Sanity does, so neither drifts from the record.
 */

/** The queries' parameters: the default language's page. */
const PARAMS = { language: 'en' };
const QUERIES = { SETTINGS_QUERY, LANDING_PAGE_QUERY, SUPPORT_PAGE_QUERY, PRIVACY_POLICY_QUERY, POLICY_VERSIONS_QUERY } as const;
type QueryName = keyof typeof QUERIES;
const nameOf = (query: string | null) => (Object.keys(QUERIES) as QueryName[]).find((name) => QUERIES[name] === query);

const requests: URL[] = [];
let server: Server;
let apiHost: string;
let dir: string;
let datasetFile: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hosted-contract-'));
  datasetFile = path.join(dir, 'dataset.ndjson');
  await writeFile(datasetFile, fixture.documents.map((doc) => JSON.stringify(doc)).join('\n') + '\n');

  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(url);
    const match = url.pathname.match(/^\/v([\d-]+)\/data\/query\/([\w-]+)$/);
    if (!match || match[2] !== 'staging') {
      res.writeHead(404).end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    const query = url.searchParams.get('query');
    const name = nameOf(query);
    if (!name || url.searchParams.get('perspective') !== 'published') {
      res.writeHead(400).end(JSON.stringify({ error: 'No recorded answer for this query and perspective' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: fixture.responses[name], ms: 1, query }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiHost = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'abc123');
  vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', 'staging');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function hostedClient() {
  const client = createSanityClient();
  // Only the host changes: project, dataset, version and perspective are the site's own settings.
  return client.withConfig({ apiHost, useProjectHostname: false, useCdn: false, stega: false });
}

describe('hosted Sanity source', () => {
  it('is configured from the environment for the published perspective', () => {
    const config = createSanityClient().config();
    expect(config).toMatchObject({
      projectId: 'abc123',
      dataset: 'staging',
      apiVersion: SANITY_API_VERSION,
      perspective: 'published',
      useCdn: true,
    });
  });

  it.each(Object.keys(QUERIES) as QueryName[])("sends %s as written and reads Sanity's answer", async (name) => {
    expect(await hostedClient().fetch(QUERIES[name])).toEqual(fixture.responses[name]);
    const sent = requests.at(-1)!;
    expect(sent.pathname).toBe(`/v${SANITY_API_VERSION}/data/query/staging`);
    expect(sent.searchParams.get('perspective')).toBe('published');
  });

  it.each(Object.keys(QUERIES) as QueryName[])(
    "with no project, the site's client (the local lake, in process, over the same documents) answers %s as Sanity does",
    async (name) => {
      const lake = await Lake.open({ documents: fixture.documents, access: { kind: 'local' } });
      const client = inProcessClient(async () => createHandler(lake, LAKE_PATH));
      expect(client.config()).toMatchObject({ projectId: 'local', dataset: 'production', apiHost: 'http://localhost:3000/api/lake' });
      expect(await client.fetch(QUERIES[name], PARAMS)).toEqual(fixture.responses[name]);
      lake.close();
    },
  );

  it("with no project, is the local lake's client", () => {
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', '');
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', '');
    expect(createSanityClient().config()).toMatchObject({ projectId: 'local', useProjectHostname: false });
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'abc123');
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', 'staging');
  });

  it('half a project configuration is an error, not the embedded default', () => {
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', '');
    expect(() => createSanityClient()).toThrow('NEXT_PUBLIC_SANITY_DATASET is not set');
    vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', 'staging');
  });
});

describe('the local Content Lake', () => {
  let lake: ContentLake;
  beforeAll(async () => {
    lake = await startContentLake({ documents: fixture.documents, projectId: 'abc123', dataset: 'staging' });
  });
  afterAll(() => lake.stop());

  it.each(Object.keys(QUERIES) as QueryName[])("answers the site's client for %s as Sanity does, with sync tags", async (name) => {
    const client = createSanityClient().withConfig({ apiHost: lake.apiHost, useProjectHostname: false, useCdn: false });
    expect(await client.fetch(QUERIES[name], PARAMS)).toEqual(fixture.responses[name]);
    const raw = await client.fetch(QUERIES[name], PARAMS, { filterResponse: false });
    expect(raw.result).toEqual(fixture.responses[name]);
    expect(raw.syncTags).toEqual(expect.arrayContaining([expect.stringMatching(/^s1:/)]));
  });
});
