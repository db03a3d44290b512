import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { chromium, type Browser } from '@playwright/test';

import { startAppServer, type AppServer } from '../../testkit/app-server';
import { CHROMIUM_ARGS, chromiumEnv, TEST_CHROMIUM_PATH } from '../../testkit/browser';
import { readDataset, seedCopy, type Doc } from '../../testkit/dataset';
import { freePort } from '../../testkit/processes';
import { preparedDataDir } from '../../testkit/store';
import { expectStatus, openHistory, openStudio, phase, PHASE_TIMEOUT_MS, STATUS, studio, studioContext } from '../../testkit/studio';
import { expect, test } from '../../testkit/test';

/**
 * The local lake's own guarantees, on a server of the embedded build started here (the Studio tests
 * share the browser tests' server, which cannot be killed), whose dataset file is in a repository of its
 * own with two commits that changed the policy: its history from git, its history and content through a
 * SIGKILL, a release published at its scheduled time, refusals of what breaks the schema, of other origins
 * and of DNS rebinding. Nothing here loads a public page, so this server never writes a page into the
 * build that the other servers read.
 */

const LAKE_API = '/api/lake/v2025-02-19/data';
/** The reply time /support shows, as a release that falls due while the server is down sets it. */
const RELEASED_REPLY_TIME = 'We reply within a day: settings published by a release.';
const DAY_MS = 86_400_000;
/** Two commits, a month and a day before the test runs: the Studio words one as a date, the other as words. */
const AUTHORS = [
  { name: 'Ada Lovelace', title: 'Privacy policy, first draft', date: new Date(Date.now() - 40 * DAY_MS).toISOString() },
  { name: 'Grace Hopper', title: 'Privacy policy, reviewed', date: new Date(Date.now() - 2 * DAY_MS).toISOString() },
];

/** A repository whose seed has one commit per author, each changing the policy's title. */
async function repositoryWithHistory(dir: string): Promise<string> {
  const file = await seedCopy(dir);
  const git = (args: string[], env: Record<string, string> = {}) =>
    execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe', env: { ...process.env, ...env } });
  git(['init', '-q']);
  for (const { name, title, date } of AUTHORS) {
    const documents = (await readDataset(file)).map((doc) => (doc._id === 'privacyPolicy' ? { ...doc, title } : doc));
    await writeFile(file, documents.map((doc) => `${JSON.stringify(doc)}\n`).join(''));
    const email = `${name.split(' ')[0]!.toLowerCase()}@example.com`;
    const who = { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
    git(['add', '-A']);
    git(['commit', '-q', '-m', title], { ...who, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  }
  return file;
}

test.describe('the local lake of the embedded default', () => {
  // The SIGKILL test starts the server again and cold-loads the Studio twice: about 40 s here, 90 s on one core.
  test.describe.configure({ mode: 'serial', timeout: 240_000 });

  let dir: string;
  let env: Record<string, string>;
  let server: AppServer;
  let port: number;
  const lakeApi = (path: string) => `${server.origin}${LAKE_API}${path}`;
  /** The policy as the file on disk holds it: its draft if there is one, else the published document. */
  const policyOnDisk = async () => {
    const documents = await readDataset(env.CONTENT_FILE);
    return documents.find((doc) => doc._id === 'drafts.privacyPolicy') ?? documents.find((doc) => doc._id === 'privacyPolicy');
  };
  /** A browser context of its own for this server's Studio, and the problems met in it (studioContext). */
  const localStudio = async (browser: Browser) => {
    const problems: string[] = [];
    return { context: await studioContext(browser, { local: true, origin: server.origin }, problems), problems };
  };
  /** A Studio page of its own on the policy. */
  const openPolicy = async (browser: Browser) => {
    const { context, problems } = await localStudio(browser);
    const page = await context.newPage();
    await openStudio(page, server.origin, 'structure/privacyPolicy', studio.input(page, 'title'));
    return { context, page, problems };
  };

  test.beforeAll(async () => {
    // A server's start (its first page renders once the store is open) took 37 s on a busy 2-core machine.
    test.setTimeout(120_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'studio-lake-'));
    env = {
      DATA_DIR: await preparedDataDir(path.join(dir, 'data')),
      CONTENT_FILE: await repositoryWithHistory(path.join(dir, 'repository')),
    };
    port = await freePort();
    server = await startAppServer(env, { port });
  });
  test.afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('History shows each commit that changed the policy, by its author, and an older one opens as it was', async ({ browser }) => {
    const { context, page, problems } = await phase('open the Studio', () => openPolicy(browser));
    await phase('the status line and the history', async () => {
      await expectStatus(page, STATUS.lastPublished);
      await openHistory(page);
      const items = studio.historyItems(page);
      await expect(items).toHaveCount(2);
      await expect(items.nth(0)).toHaveAccessibleName(/^Grace Hopper Published/);
      await expect(items.nth(1)).toHaveAccessibleName(/^Ada Lovelace Published/);
    });
    await phase("Ada Lovelace's revision", async () => {
      await studio.historyItems(page).nth(1).click();
      await expect(studio.input(page, 'title')).toHaveValue(AUTHORS[0]!.title);
    });
    await context.close();
    expect(problems).toEqual([]);
  });

  test('a publish that breaks the schema is refused with its reason, and the published policy stays', async () => {
    const published = (await (await fetch(lakeApi('/doc/production/privacyPolicy'))).json()) as { documents: Doc[] };
    const policy = published.documents[0]!;
    const sixSections = { ...policy, _id: 'drafts.privacyPolicy', sections: (policy.sections as unknown[]).slice(0, 6) };
    const write = (body: unknown, endpoint: string) =>
      fetch(lakeApi(`/${endpoint}/production`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await write({ mutations: [{ createOrReplace: sixSections }] }, 'mutate')).status).toBe(200);
    const refused = await write(
      { actions: [{ actionType: 'sanity.action.document.publish', draftId: 'drafts.privacyPolicy', publishedId: 'privacyPolicy' }] },
      'actions',
    );
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toContain('The policy has exactly 7 sections.');
    expect((await readDataset(env.CONTENT_FILE)).find((doc) => doc._id === 'privacyPolicy')?.sections).toHaveLength(7);
    expect((await write({ mutations: [{ delete: { id: 'drafts.privacyPolicy' } }] }, 'mutate')).status).toBe(200);
  });

  test('a publish, a draft, a release due meanwhile and their history survive the server being killed (SIGKILL) and started again', async ({
    browser,
  }) => {
    const stamp = Date.now();
    const before = await phase('open the Studio', () => openPolicy(browser));
    await phase('publish, then edit', async () => {
      await studio.input(before.page, 'title').fill(`Published before the crash ${stamp}`);
      await expect(studio.publish(before.page)).toBeEnabled();
      await studio.publish(before.page).click();
      await expect.poll(async () => (await policyOnDisk())?._id).toBe('privacyPolicy');
      await expectStatus(before.page, STATUS.published);
      await studio.input(before.page, 'title').fill(`Draft before the crash ${stamp}`);
      await expect.poll(async () => (await policyOnDisk())?.title).toBe(`Draft before the crash ${stamp}`);
    });
    await before.context.close();
    expect(before.problems).toEqual([]);

    // A release of the site's settings falls due while the server is down: the next start publishes it.
    const release = `rCrash${stamp}`;
    const publishAt = await phase('schedule a release, and kill the server before its time', async () => {
      const act = async (actions: object[]) => {
        const answer = await fetch(lakeApi('/actions/production'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ actions }),
        });
        expect(answer.status, await answer.text()).toBe(200);
      };
      const version = `versions.${release}.siteSettings`;
      await act([
        { actionType: 'sanity.action.release.create', releaseId: release, metadata: { title: 'Settings', releaseType: 'scheduled' } },
        { actionType: 'sanity.action.document.version.create', publishedId: 'siteSettings', baseId: 'siteSettings', versionId: version },
        {
          actionType: 'sanity.action.document.edit',
          draftId: version,
          publishedId: 'siteSettings',
          patch: { set: { replyTime: RELEASED_REPLY_TIME } },
        },
      ]);
      const at = Date.now() + 3000;
      await act([{ actionType: 'sanity.action.release.schedule', releaseId: release, publishAt: new Date(at).toISOString() }]);
      await server.kill();
      expect((await readDataset(env.CONTENT_FILE)).find((doc) => doc._id === `_.releases.${release}`)?.state).toBe('scheduled');
      return at;
    });
    await phase('start it again once the release is due; its settings are on the pages within 2 s', async () => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, publishAt - Date.now())));
      server = await startAppServer(env, { port });
      await expect
        .poll(async () => (await fetch(`${server.origin}/support`)).text(), { timeout: 2000, intervals: [50] })
        .toContain(RELEASED_REPLY_TIME);
    });
    await phase("the release's publish, in the new process's history at once", async () => {
      const history = `${LAKE_API}/history/production`;
      const transactions = (await (await fetch(`${server.origin}${history}/transactions/siteSettings`)).text())
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { documentIDs: string[] });
      expect(transactions.filter((transaction) => transaction.documentIDs.includes(`_.releases.${release}`))).toHaveLength(1);
      const { events } = (await (await fetch(`${server.origin}${history}/events/documents/siteSettings`)).json()) as {
        events: { siteSettings: { type: string; releaseId?: string; publishCause?: string }[] };
      };
      expect(events.siteSettings.filter((event) => event.releaseId === release)).toEqual([
        expect.objectContaining({ type: 'publishDocumentVersion', publishCause: 'release.schedule' }),
      ]);
    });
    const after = await phase('open the Studio again', () => openPolicy(browser));
    await phase('the draft, the publish and the history', async () => {
      await expect(studio.input(after.page, 'title')).toHaveValue(`Draft before the crash ${stamp}`);
      const policy = (await (await fetch(lakeApi('/doc/production/privacyPolicy'))).json()) as { documents: Doc[] };
      expect(policy.documents[0]?.title).toBe(`Published before the crash ${stamp}`);
      await expectStatus(after.page, STATUS.edited);
      await openHistory(after.page);
      const published = studio.historyItems(after.page).filter({ hasText: 'Published' });
      await expect(published).toHaveCount(3);
      await expect(published.first()).toHaveAccessibleName(/^Local editor Published/);
    });
    await after.context.close();
    expect(after.problems).toEqual([]);
  });

  test('a release made in the Studio, holding the policy edited there, is published by the lake at its scheduled time', async ({
    browser,
  }) => {
    const title = `Privacy policy from 1 January ${Date.now()}`;
    const onDisk = async (id: string) => (await readDataset(env.CONTENT_FILE)).find((doc) => doc._id === id);
    const { context, problems } = await localStudio(browser);
    let page = await context.newPage();
    // Each Studio page in a tab of its own: after a goto away from a loaded Studio, its presence client sends on
    // the socket the page being left has closed, and Chromium logs a console error there (docs/measuring.md).
    const openTab = async (url: string) => {
      const next = await context.newPage();
      await page.close();
      page = next;
      await page.goto(url);
    };
    const release = await phase('create the release', async () => {
      await openTab(`${server.origin}/studio/releases`);
      // The page's own button; the table of open releases, empty, offers a second one.
      await page.getByRole('button', { name: 'New release' }).first().click();
      await page.getByTestId('release-form-title').fill('Policy effective 1 January');
      await page.getByTestId('submit-release-button').click();
      await expect(page).toHaveURL(/\/studio\/releases\/r\w+/);
      return /\/releases\/(r\w+)/.exec(page.url())![1]!;
    });
    const publishedTitle = (await onDisk('privacyPolicy'))?.title;
    await phase('add the policy to it, and edit it there', async () => {
      await openTab(`${server.origin}/studio/structure/privacyPolicy?perspective=${release}`);
      await page.getByRole('button', { name: 'Add to release' }).click({ timeout: PHASE_TIMEOUT_MS });
      await expect(studio.input(page, 'title')).toBeEditable();
      await studio.input(page, 'title').fill(title);
      await expect.poll(async () => (await onDisk(`versions.${release}.privacyPolicy`))?.title).toBe(title);
      expect((await onDisk('privacyPolicy'))?.title).toBe(publishedTitle);
    });
    await phase(
      'schedule it a few seconds ahead, and see it published',
      async () => {
        // The release's page first, as the reviewer watches it: it checks what its menu may offer while the release is open.
        await openTab(`${server.origin}/studio/releases/${release}`);
        // Enabled once the Studio has validated the release's documents in the page, which a busy machine makes slow.
        await expect(page.getByRole('button', { name: 'Run release' })).toBeEnabled({ timeout: PHASE_TIMEOUT_MS });
        // Through the lake's API, as the Studio sends it: its date picker is not what is tested here.
        const publishAt = new Date(Date.now() + 3000).toISOString();
        const scheduled = await fetch(`${server.origin}${LAKE_API}/actions/production`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ actions: [{ actionType: 'sanity.action.release.schedule', releaseId: release, publishAt }] }),
        });
        expect(scheduled.status).toBe(200);
        await expect.poll(async () => (await onDisk('privacyPolicy'))?.title).toBe(title);
        expect(await onDisk(`_.releases.${release}`)).toMatchObject({
          state: 'published',
          finalDocumentStates: [{ id: `versions.${release}.privacyPolicy` }],
        });
        expect(await onDisk(`versions.${release}.privacyPolicy`)).toBeUndefined();
        // The release's page follows: published, with the policy as it went out.
        await expect(page.getByText('This release is published successfully.')).toBeVisible();
        await expect(page.getByText(title)).toBeVisible();
      },
      2 * PHASE_TIMEOUT_MS,
    );
    await context.close();
    expect(problems).toEqual([]);
  });

  test('writes from another origin, and through DNS rebinding, are refused; the Studio there says editing is off, and why', async () => {
    // evil.example resolves to this machine, as a rebinding attacker's name would.
    const attacker = await chromium.launch({
      executablePath: TEST_CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.example 127.0.0.1'],
      env: chromiumEnv(),
    });
    const before = await readFile(env.CONTENT_FILE!, 'utf8');
    try {
      const page = await attacker.newPage();
      const statuses: number[] = [];
      page.on('response', (response) => response.url().includes('/api/lake/') && statuses.push(response.status()));
      await page.goto(`http://evil.example:${port}/studio`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Editing is off here');
      await expect(page.getByRole('main').getByRole('alert')).toContainText('evil.example');

      const write = JSON.stringify({ mutations: [{ patch: { id: 'privacyPolicy', set: { title: 'Defaced' } } }] });
      const results = await page.evaluate(
        async ([body, foreign]) => {
          const post = (url: string, init: RequestInit) =>
            fetch(url, { method: 'POST', body, ...init }).then(
              (r) => r.status,
              () => 'blocked',
            );
          return [
            // Same-origin to the page, whose name points here: a rebinding.
            await post('/api/lake/v2025-02-19/data/mutate/production', { headers: { 'content-type': 'application/json' } }),
            // From this page to the site's own address: a cross-origin write, sent as a "simple" request so no preflight stops it first.
            await post(`${foreign}/api/lake/v2025-02-19/data/mutate/production`, {
              mode: 'no-cors',
              headers: { 'content-type': 'text/plain' },
            }),
          ];
        },
        [write, server.origin],
      );
      expect(results[0]).toBe(403);
      expect(statuses.filter((status) => status === 403).length).toBeGreaterThanOrEqual(2);
    } finally {
      await attacker.close();
    }
    expect(await readFile(env.CONTENT_FILE!, 'utf8')).toBe(before);
  });
});
