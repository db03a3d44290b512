import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { createClient, type SanityClient } from '@sanity/client';

import { LAKE_PATH, LOCAL_PROJECT } from '@school-site/content-lake';
import { SANITY_API_VERSION } from '../../lib/env/public';
import { startAppServer, type AppServer } from '../../testkit/app-server';
import { editDocument, readDataset, seedCopy, type Doc } from '../../testkit/dataset';
import { freePort } from '../../testkit/processes';
import { preparedDataDir } from '../../testkit/store';
import { expect, test } from '../../testkit/test';

/**
 * Every publish on the embedded default reaches its pages by one path: one made through the
 * lake's API by a script, with no Studio open and no other request to the lake; a hand edit of the file; a
 * release at its time (one that fell due while the server was down: studio-lake.spec.ts's SIGKILL test).
 * Each is on its page within 2 s, on a fresh server of its own, as a new user's first publish would be.
 * No browser: a script is the client.
 */

/** How soon a publish is on its page, at most. */
const ON_THE_PAGE_MS = 2000;
const DRAFT = { draftId: 'drafts.privacyPolicy', publishedId: 'privacyPolicy' };

test.describe('one path from a publish to its pages', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });

  let dir: string;
  let env: Record<string, string>;
  let server: AppServer;
  let port: number;
  let lake: SanityClient;

  /** The page's status and HTML, as a visitor gets them. */
  const page = async (pathname: string) => {
    const response = await fetch(`${server.origin}${pathname}`);
    return { status: response.status, html: await response.text() };
  };
  /** Whether `pathname` answers 200 with `text` in it, said in words a failure can show. */
  const holds = async (pathname: string, text: string) => {
    const { status, html } = await page(pathname);
    return status === 200 && html.includes(text) ? 'on the page' : `${status}, without "${text}"`;
  };
  /** Resolves once `pathname` holds `text`; fails if it does not within ON_THE_PAGE_MS of `since`. */
  const onThePage = (pathname: string, text: string, since = Date.now()) =>
    expect
      .poll(() => holds(pathname, text), { timeout: Math.max(since + ON_THE_PAGE_MS - Date.now(), 100), intervals: [50] })
      .toBe('on the page');
  const policy = async () => (await readDataset(env.CONTENT_FILE)).find((doc) => doc._id === 'privacyPolicy')!;
  /** What a script does: the draft (data/mutate), then the publish action (data/actions), each answered before the next. */
  const publishByApi = async (changes: Partial<Doc>) => {
    await lake.createOrReplace({ ...(await policy()), ...changes, ...{ _id: DRAFT.draftId } } as Doc);
    await lake.action({ actionType: 'sanity.action.document.publish', ...DRAFT });
  };
  /** A release of the policy with `title`, published by the lake at `publishAt`. */
  const scheduleRelease = async (title: string, publishAt: number) => {
    const release = `r${publishAt.toString(36)}`;
    const versionId = `versions.${release}.privacyPolicy`;
    await lake.action([
      { actionType: 'sanity.action.release.create', releaseId: release, metadata: { title, releaseType: 'scheduled' } },
      {
        actionType: 'sanity.action.document.version.create',
        publishedId: 'privacyPolicy',
        document: { ...(await policy()), _id: versionId, title },
      },
    ]);
    await lake.action({ actionType: 'sanity.action.release.schedule', releaseId: release, publishAt: new Date(publishAt).toISOString() });
  };
  const start = async () => {
    server = await startAppServer(env, { port });
    lake = createClient({
      ...LOCAL_PROJECT,
      apiHost: `${server.origin}${LAKE_PATH}`,
      useProjectHostname: false,
      apiVersion: SANITY_API_VERSION,
      useCdn: false,
    });
  };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'publish-path-'));
    env = { DATA_DIR: await preparedDataDir(path.join(dir, 'data')), CONTENT_FILE: await seedCopy(dir) };
    port = await freePort();
    await start();
  });
  test.afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('the first publish after a start, a new version, is on /privacy, the list of versions and its changes page', async () => {
    const date = '2026-11-28';
    const summary = `A clearer section on reports ${Date.now()}.`;
    // Before: the version is nowhere (each page rendered once, so the publish has cached pages to replace).
    expect((await page(`/privacy/versions/${date}/changes`)).status).toBe(404);
    expect(await holds('/privacy/versions', summary)).not.toBe('on the page');
    expect(await holds('/privacy', summary)).not.toBe('on the page');

    await publishByApi({ lastUpdated: date, summary });
    const published = Date.now();
    await onThePage('/privacy', summary, published);
    await onThePage('/privacy/versions', summary, published);
    await onThePage(`/privacy/versions/${date}/changes`, summary, published);
  });

  test('30 publishes in a row through @sanity/client, each on /privacy, with no other request to the lake', async () => {
    for (let n = 1; n <= 30; n += 1) {
      const title = `Privacy Policy, revision ${n} ${Date.now()}`;
      await publishByApi({ title });
      await onThePage('/privacy', title);
    }
  });

  test('a hand edit of the file, saved while the server runs, is on /privacy with no request', async () => {
    const title = `Edited by hand ${Date.now()}`;
    await editDocument('privacyPolicy', (doc) => void (doc.title = title), env.CONTENT_FILE);
    await onThePage('/privacy', title);
  });

  test('a release is on /privacy at its time, published by the lake with no request', async () => {
    const title = `Policy of the release ${Date.now()}`;
    const publishAt = Date.now() + 1500;
    await scheduleRelease(title, publishAt);
    expect(await holds('/privacy', title)).not.toBe('on the page');
    await onThePage('/privacy', title, publishAt);
  });
});
