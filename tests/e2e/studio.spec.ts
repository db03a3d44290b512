import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { chromium, expect, test, type BrowserContext, type Page } from '@playwright/test';

import { startAppServer, type AppServer } from '../../testkit/app-server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../testkit/browser';
import { postWebhook, readDataset, resetContent, resetLake, seedCopy, type Doc } from '../../testkit/dataset';
import { E2E_SERVERS } from '../../testkit/e2e-servers';
import { lakeClient, LAKE_PROJECT, LAKE_TOKEN } from '../../testkit/hosted';
import { SEED } from '../../testkit/seed-copy';
import { freePort } from '../../testkit/processes';
import { answerForSanityServices, discardChanges, openStudio, signInWithToken, studio, watchProblems } from '../../testkit/studio';

/**
 * The editors' path, in the real Sanity Studio at /studio, on both builds: the embedded default (no
 * account: the Studio edits the site's dataset through the local lake in the site's own server) and the
 * hosted build signed in with a token, whose API is the local lake playing Sanity's. Every page listens
 * to console errors, uncaught exceptions and answers ≥ 400: each test ends with none.
 */

type Target = {
  name: string;
  server: (typeof E2E_SERVERS)[keyof typeof E2E_SERVERS];
  /** A document as the Content Lake holds it, or undefined. */
  read(id: string): Promise<Doc | undefined>;
  /** What follows a publish before visitors see it: nothing on the embedded default; Sanity's webhook for a project. */
  published(type: string): Promise<void>;
  signIn?(context: BrowserContext): Promise<void>;
  reset(): Promise<void>;
};

const LAKE_API = '/api/lake/v2025-02-19/data';

const embedded: Target = {
  name: 'embedded default',
  server: E2E_SERVERS.main,
  read: async (id) => {
    const answer = await fetch(`${E2E_SERVERS.main.url}${LAKE_API}/doc/production/${id}`);
    return ((await answer.json()) as { documents: Doc[] }).documents[0];
  },
  published: async () => {},
  reset: () => resetContent(E2E_SERVERS.main.url),
};

const hosted: Target = {
  name: 'hosted build',
  server: E2E_SERVERS.hosted,
  read: async (id) => (await lakeClient().getDocument<Doc>(id)) ?? undefined,
  published: async (type) => {
    expect((await postWebhook(E2E_SERVERS.hosted.url, { _type: type, _id: type })).status).toBe(200);
  },
  signIn: (context) => signInWithToken(context, LAKE_PROJECT.projectId, LAKE_TOKEN),
  reset: () => resetLake(E2E_SERVERS.hosted.url),
};

const DOCUMENTS = [
  { title: 'Site settings', field: 'productName', value: SEED.settings.productName },
  { title: 'Landing page', field: 'hero.headline', value: SEED.landing.hero?.headline },
  { title: 'Support page', field: 'heading', value: SEED.support.heading },
  { title: 'Privacy policy', field: 'title', value: SEED.privacy.title },
];

const textOf = (doc: Doc | undefined) => JSON.stringify(doc ?? null);
const publicPage = async (origin: string, path: string) => (await fetch(`${origin}${path}`)).text();

for (const target of [embedded, hosted]) {
  test.describe(`the Studio on the ${target.name}`, () => {
    test.describe.configure({ mode: 'serial' });

    const origin = target.server.url;
    const stamp = Date.now();
    const title = `Policy under review ${stamp}`;
    const sentence = `Reviewed by legal ${stamp}.`;
    const secondTitle = `${title}, second edit`;
    let context: BrowserContext;
    let editor: Page;
    const problems: string[] = [];

    test.beforeAll(async ({ browser }) => {
      context = await browser.newContext({ ignoreHTTPSErrors: true });
      await answerForSanityServices(context);
      await target.signIn?.(context);
      context.on('page', (page) => watchProblems(page, problems));
      editor = await context.newPage();
    });
    test.afterEach(() => expect(problems.splice(0)).toEqual([]));
    test.afterAll(async () => {
      await context.close();
      await target.reset();
    });

    test('a deep link opens the privacy policy, and each of the four documents opens from the list', async () => {
      await openStudio(editor, origin, 'structure/privacyPolicy', studio.input(editor, 'title'));
      for (const { title: item, field, value } of DOCUMENTS) {
        await studio.item(editor, item).click();
        await expect(studio.input(editor, field)).toHaveValue(value!);
      }
    });

    test('a string and a rich-text edit make a draft, which visitors do not see', async () => {
      await studio.input(editor, 'title').fill(title);
      await studio.field(editor, 'sections').locator('[data-testid="default-preview"]').first().click();
      await studio.richText(editor).click();
      await editor.keyboard.press('Control+End');
      await editor.keyboard.type(` ${sentence}`);
      await editor.keyboard.press('Escape');
      await expect.poll(async () => textOf(await target.read('drafts.privacyPolicy'))).toContain(sentence);
      expect(textOf(await target.read('drafts.privacyPolicy'))).toContain(title);
      const page = await publicPage(origin, '/privacy');
      expect(page).not.toContain(title);
      expect(page).not.toContain(sentence);
    });

    test('Presentation, in a second tab beside the structure tool, shows the draft and follows the next edit without a reload', async () => {
      const presentation = await context.newPage();
      await presentation.goto(`${origin}/studio/presentation?preview=/privacy`);
      const preview = presentation.frameLocator('iframe');
      await expect(preview.getByRole('heading', { level: 1 })).toContainText(title, { timeout: 30_000 });
      await expect(preview.locator('article')).toContainText(sentence);
      const frame = presentation.frames().find((candidate) => new URL(candidate.url()).pathname === '/privacy')!;
      // A mark on the preview's document: a reload would lose it.
      await frame.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

      await studio.input(editor, 'title').fill(secondTitle);
      // Generous: this only checks that it follows; scripts/measure-studio.ts measures how fast.
      await expect(preview.getByRole('heading', { level: 1 })).toContainText(secondTitle, { timeout: 15_000 });
      expect(await frame.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await presentation.close();
    });

    test('Publish puts the edits on the public page at once', async () => {
      await expect(studio.publish(editor)).toBeEnabled();
      await studio.publish(editor).click();
      await expect.poll(() => target.read('drafts.privacyPolicy')).toBeUndefined();
      await target.published('privacyPolicy');
      // The first load after the publish: no waiting, no retry.
      const page = await publicPage(origin, '/privacy');
      expect(page).toContain(secondTitle);
      expect(page).toContain(sentence);
    });

    test('an emptied required field, and a policy of six sections, each block Publish with their message', async () => {
      await studio.input(editor, 'title').fill('');
      await expect(studio.publish(editor)).toBeDisabled();
      await studio.field(editor, 'title').locator('[data-testid="input-validation-icon-error"]').hover();
      await expect(editor.getByText('Required', { exact: true })).toBeVisible();
      await studio.input(editor, 'title').fill(secondTitle);

      await studio.field(editor, 'sections').locator('[data-testid="array-item-menu-button"]').first().click();
      await editor.getByRole('menuitem', { name: 'Remove' }).click();
      await expect(studio.publish(editor)).toBeDisabled();
      await studio.field(editor, 'sections').locator('[data-testid="input-validation-icon-error"]').first().hover();
      await expect(editor.getByText('The policy has exactly 7 sections.')).toBeVisible();
      await expect.poll(async () => ((await target.read('drafts.privacyPolicy'))?.sections as unknown[] | undefined)?.length).toBe(6);
    });

    test('Discard changes drops the draft, and the form shows the published policy again', async () => {
      await discardChanges(editor);
      await expect.poll(() => target.read('drafts.privacyPolicy')).toBeUndefined();
      await expect(studio.input(editor, 'title')).toHaveValue(secondTitle);
      expect((await target.read('privacyPolicy'))?.sections).toHaveLength(7);
    });
  });
}

/**
 * The local lake's own guarantees, on a server of the embedded build started here: the tests above share
 * the browser tests' server, which cannot be killed. Nothing here loads a public page, so this server never
 * writes a page into the build that the other servers read.
 */
test.describe('the local lake of the embedded default', () => {
  test.describe.configure({ mode: 'serial' });

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

  test.beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'studio-lake-'));
    env = { DATA_DIR: path.join(dir, 'data'), CONTENT_FILE: await seedCopy(dir) };
    port = await freePort();
    server = await startAppServer(env, { port });
  });
  test.afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
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

  test('a publish and a draft made in the Studio survive the server being killed (SIGKILL) and started again', async ({ browser }) => {
    const context = await browser.newContext();
    await answerForSanityServices(context);
    const page = await context.newPage();
    const problems = watchProblems(page);
    const stamp = Date.now();
    await openStudio(page, server.origin, 'structure/privacyPolicy', studio.input(page, 'title'));
    await studio.input(page, 'title').fill(`Published before the crash ${stamp}`);
    await expect(studio.publish(page)).toBeEnabled();
    await studio.publish(page).click();
    await expect.poll(async () => (await policyOnDisk())?._id).toBe('privacyPolicy');
    await studio.input(page, 'title').fill(`Draft before the crash ${stamp}`);
    await expect.poll(async () => (await policyOnDisk())?.title).toBe(`Draft before the crash ${stamp}`);
    await context.close();
    expect(problems).toEqual([]);

    await server.kill();
    server = await startAppServer(env, { port });
    const again = await browser.newContext();
    await answerForSanityServices(again);
    const reopened = await again.newPage();
    const after = watchProblems(reopened);
    await openStudio(reopened, server.origin, 'structure/privacyPolicy', studio.input(reopened, 'title'));
    await expect(studio.input(reopened, 'title')).toHaveValue(`Draft before the crash ${stamp}`);
    const published = (await (await fetch(lakeApi('/doc/production/privacyPolicy'))).json()) as { documents: Doc[] };
    expect(published.documents[0]?.title).toBe(`Published before the crash ${stamp}`);
    await again.close();
    expect(after).toEqual([]);
  });

  test('writes from another origin, and through DNS rebinding, are refused; the Studio there says editing is off, and why', async () => {
    // evil.example resolves to this machine, as a rebinding attacker's name would.
    const attacker = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.example 127.0.0.1'],
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
