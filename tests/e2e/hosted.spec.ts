import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { SanityDocument } from '@sanity/client';
import { createPreviewSecret } from '@sanity/preview-url-secret/create-secret';
import { type Page } from '@playwright/test';

import { versionId } from '../../lib/policy/policy-record';
import { addDays, dayIn } from '../../lib/shared/site-time';
import { changesPath, PUBLIC_PATHS, ROUTES } from '../../lib/shared/public-pages';
import { LAKE_ORIGIN, lakeClient } from '../../testkit/hosted';
import { watchProblems } from '../../testkit/studio';
import { E2E_SERVERS } from '../../testkit/e2e-servers';
import { postWebhook, readDataset, resetLake, SEED_FILE, type Doc } from '../../testkit/dataset';
import { expect, test } from '../../testkit/test';

/**
 * The path editors and legal reviewers use: the production build configured for a Sanity project,
 * reading from its Content Lake (the local stand-in, testkit/content-lake) through the same clients,
 * Live, draft mode and webhook as with a real project. The tests write to the lake over its HTTP API
 * with a token, as the Studio does.
 */

// The stand-in's certificate is its own (testkit/lake-tls.ts): the browser accepts it, as it would Sanity's.
test.use({ baseURL: E2E_SERVERS.hosted.url, ignoreHTTPSErrors: true });
// One lake for every test here: one at a time, seed restored after each.
test.describe.configure({ mode: 'serial' });

const lake = lakeClient().withConfig({ perspective: 'raw' });

type Section = { heading: string; body: { children: { text: string }[] }[] };

async function privacyPolicy(id = 'privacyPolicy'): Promise<Doc> {
  const doc = await lake.getDocument<Doc>('privacyPolicy');
  if (!doc) throw new Error('no privacyPolicy in the lake');
  return { ...doc, _id: id };
}

const withIntro = (doc: Doc, text: string): Doc => {
  const copy = structuredClone(doc);
  (copy.sections as Section[])[0]!.body[0]!.children[0]!.text = text;
  return copy;
};

/** Draft mode through the secret flow, as Presentation opens a preview (optionally of a content release). */
async function openPreview(page: Page, pathname: string, perspective?: string) {
  const { secret } = await createPreviewSecret(lake, 'e2e', `${E2E_SERVERS.hosted.url}/studio`, 'e2e-reviewer');
  const params = new URLSearchParams({ 'sanity-preview-secret': secret, 'sanity-preview-pathname': pathname });
  if (perspective) params.set('sanity-preview-perspective', perspective);
  const connected = liveConnected(page);
  await page.goto(`/api/draft-mode/enable?${params}`);
  await expect(page.getByRole('status').filter({ hasText: 'Draft preview' })).toBeVisible();
  await connected;
}

/** Resolves when the page's Sanity Live has its stream open (the Live Content API answered it): edits after this reach it. */
const liveConnected = (page: Page) => page.waitForResponse((response) => response.url().includes('/data/live/events/') && response.ok());

/** The id Next gave a server action of the build (its server-reference manifest), as the page's script sends it. */
function serverAction(distDir: string, exportedName: string): string {
  const manifest = JSON.parse(readFileSync(path.join(distDir, 'server', 'server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { exportedName: string }>;
  };
  const id = Object.entries(manifest.node).find(([, action]) => action.exportedName === exportedName)?.[0];
  if (!id) throw new Error(`no server action ${exportedName} in ${distDir}`);
  return id;
}

test.afterEach(async ({ baseURL }) => resetLake(baseURL!));

test('published pages render from the hosted API, and a visitor holds no connection to it', async ({ page }) => {
  const problems = watchProblems(page);
  const toLake: string[] = [];
  page.on('request', (request) => request.url().startsWith(LAKE_ORIGIN) && toLake.push(request.url()));
  const seed = await readDataset(SEED_FILE);
  for (const path of PUBLIC_PATHS) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Hydrated and quiet: an EventSource or a late chunk would keep the network busy, or show below.
    await page.waitForLoadState('networkidle');
  }
  await page.goto(ROUTES.privacy);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(seed.find((doc) => doc._id === 'privacyPolicy')!.title as string);
  expect(toLake).toEqual([]);
  expect(problems).toEqual([]);
});

test('a publish (the document written, its live event, the signed webhook) shows on the next load of an open tab, and the webhook records its version', async ({
  page,
  baseURL,
}) => {
  const problems = watchProblems(page);
  await page.goto('/privacy');
  await page.waitForLoadState('networkidle');
  const text = `Published by legal review ${Date.now()}.`;
  // A day that has begun: the version takes effect as it is published.
  const day = addDays(dayIn(Date.now(), 'UTC'), -1);
  await lake.createOrReplace(withIntro({ ...(await privacyPolicy()), lastUpdated: day }, text) as SanityDocument);
  const response = await postWebhook(baseURL!, { _type: 'privacyPolicy', _id: 'privacyPolicy' });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ recorded: `added ${day}` });
  expect(JSON.stringify((await lake.getDocument<Doc>(versionId(day)))?.sections)).toContain(text);
  // The open tab stays as it is (no live event reaches it, no call is refused) until it is loaded again.
  await page.waitForLoadState('networkidle');
  await page.reload();
  await expect(page.locator('article')).toContainText(text);
  expect(problems).toEqual([]);
});

test('draft mode shows drafts, follows a draft edit without a reload, and leaving it shows published content', async ({ page }) => {
  // 8 s alone, 16 s beside the other worker's tests (CI, 2 cores): twice that, for a slower machine.
  test.setTimeout(60_000);
  const problems = watchProblems(page);
  const published = await privacyPolicy();
  const first = `Draft under legal review ${Date.now()}.`;
  await lake.createOrReplace(withIntro(await privacyPolicy('drafts.privacyPolicy'), first) as SanityDocument);

  await openPreview(page, '/privacy');
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.locator('article')).toContainText(first);

  // A mark on this document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const second = `Second draft ${Date.now()}.`;
  await lake.createOrReplace(withIntro(await privacyPolicy('drafts.privacyPolicy'), second) as SanityDocument);
  await expect(page.locator('article')).toContainText(second);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

  await page.getByRole('link', { name: 'Exit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Draft preview' })).toHaveCount(0);
  await page.goto('/privacy');
  await expect(page.locator('article')).not.toContainText(second);
  await expect(page.locator('article')).toContainText((published.sections as Section[])[0]!.body[0]!.children[0]!.text);
  expect(problems).toEqual([]);
});

test('a content release opened from Presentation is previewed as that release, over the drafts', async ({ page }) => {
  const problems = watchProblems(page);
  const release = 'rSpring';
  const draftText = `Draft intro ${Date.now()}.`;
  const releaseText = `Intro of the spring release ${Date.now()}.`;
  await lake.createOrReplace(withIntro(await privacyPolicy('drafts.privacyPolicy'), draftText) as SanityDocument);
  await lake.createOrReplace(withIntro(await privacyPolicy(`versions.${release}.privacyPolicy`), releaseText) as SanityDocument);

  await openPreview(page, '/privacy', `${release},drafts`);
  await expect(page.locator('article')).toContainText(releaseText);

  await openPreview(page, '/privacy', 'drafts');
  await expect(page.locator('article')).toContainText(draftText);
  expect(problems).toEqual([]);
});

test("Presentation's perspective switch (a server action with React's text/plain arguments) passes the proxy and changes the preview", async ({
  page,
}) => {
  const problems = watchProblems(page);
  const release = 'rSummer';
  const releaseText = `Intro of the summer release ${Date.now()}.`;
  await lake.createOrReplace(withIntro(await privacyPolicy(`versions.${release}.privacyPolicy`), releaseText) as SanityDocument);
  await openPreview(page, '/privacy', 'drafts');
  await expect(page.locator('article')).not.toContainText(releaseText);

  // What <VisualEditing> calls when the editor picks a release in Presentation's perspective menu.
  const action = serverAction(E2E_SERVERS.hosted.distDir, 'perspectiveChangeAction');
  const status = await page.evaluate(
    async ([id, body]) =>
      (
        await fetch('/privacy', {
          method: 'POST',
          headers: { 'Next-Action': id!, 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component' },
          body,
        })
      ).status,
    [action, JSON.stringify([[release, 'drafts']])],
  );
  expect(status).toBe(200);
  await page.reload();
  await expect(page.locator('article')).toContainText(releaseText);
  expect(problems).toEqual([]);
});

test('every page in draft mode renders with no console error and no failed response', async ({ page }) => {
  const problems = watchProblems(page);
  await openPreview(page, '/');
  for (const path of PUBLIC_PATHS) {
    await page.goto(path);
    await expect(page.getByRole('status').filter({ hasText: 'Draft preview' })).toBeVisible();
  }
  expect(problems).toEqual([]);
});

test("a version announced through the webhook shows its notices; its day come in the site's time zone, the policy is the new one", async ({
  page,
  baseURL,
}) => {
  const problems = watchProblems(page);
  // Two zones 26 hours apart: the day after today in the westernmost has begun in the easternmost.
  const [west, east] = ['Etc/GMT+12', 'Pacific/Kiritimati'];
  const day = addDays(dayIn(Date.now(), west), 1);
  const sentence = `Kept for 60 days from ${day}, ${Date.now()}.`;
  const summary = `Reports are kept longer, ${Date.now()}.`;
  const inZone = async (timeZone: string) => {
    await lake.createOrReplace({ ...(await lake.getDocument<Doc>('siteSettings'))!, timeZone } as SanityDocument);
    expect((await postWebhook(baseURL!, { _type: 'siteSettings', _id: 'siteSettings' })).status).toBe(200);
  };
  await inZone(west);
  await lake.createOrReplace(withIntro({ ...(await privacyPolicy()), lastUpdated: day, summary }, sentence) as SanityDocument);
  const announced = await postWebhook(baseURL!, { _type: 'privacyPolicy', _id: 'privacyPolicy' });
  expect(await announced.json()).toMatchObject({ recorded: `added ${day}` });

  await page.goto('/');
  await page.getByRole('note').getByRole('link').click();
  await expect(page.locator('#upcoming')).toContainText(summary);
  await expect(page.locator('article')).not.toContainText(sentence);
  // Not material, so no subscriber is told: the site's notice is its announcement, and the feed says so.
  expect(await (await fetch(new URL(ROUTES.feed, baseURL))).text()).toContain(changesPath(day));

  await inZone(east);
  await page.goto(ROUTES.privacy);
  await expect(page.locator('article')).toContainText(sentence);
  await expect(page.locator('#upcoming')).toHaveCount(0);
  await expect(page.getByRole('note')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a wrongly signed, unsigned or malformed webhook refreshes nothing', async ({ page, baseURL }) => {
  await page.goto('/privacy');
  // Its text, not innerText: the sections below the fold (content-visibility: auto) are left out of
  // innerText while the browser has not laid them out, and that changes from one load to the next.
  const original = await page.locator('article').textContent();
  await lake.createOrReplace(withIntro(await privacyPolicy(), `Published, not announced ${Date.now()}.`) as SanityDocument);

  expect((await postWebhook(baseURL!, { _type: 'privacyPolicy' }, 'not-the-secret')).status).toBe(401);
  const unsigned = await fetch(new URL('/api/revalidate', baseURL), { method: 'POST', body: JSON.stringify({ _type: 'privacyPolicy' }) });
  expect(unsigned.status).toBe(401);
  expect((await postWebhook(baseURL!, '{"_type": "privacyPolicy"')).status).toBe(400);

  await page.reload();
  expect(await page.locator('article').textContent()).toBe(original);
});

test("a webhook refreshes its document's pages and leaves the others as they were", async ({ page, baseURL }) => {
  // Render both pages first, so neither is still waiting on an earlier refresh.
  await page.goto('/privacy');
  await page.goto('/support');
  const answer = `Answers come fast ${Date.now()}.`;
  const privacyText = `Published, not announced ${Date.now()}.`;
  const support = (await lake.getDocument<Doc>('supportPage'))!;
  (support.faq as { answer: string }[])[0]!.answer = answer;
  await lake.createOrReplace(support as SanityDocument);
  await lake.createOrReplace(withIntro(await privacyPolicy(), privacyText) as SanityDocument);

  const response = await postWebhook(baseURL!, { _type: 'supportPage', _id: 'supportPage' });
  expect(await response.json()).toMatchObject({ revalidated: ['supportPage'] });

  await page.goto('/support');
  await expect(page.locator('#faq')).toContainText(answer);
  await page.goto('/privacy');
  await expect(page.locator('article')).not.toContainText(privacyText);
});

test('a publish that breaks the schema is refused with 503 and the last good page stays', async ({ page, baseURL }) => {
  const problems = watchProblems(page);
  await page.goto('/privacy');
  const lastGood = await page.locator('article').textContent();
  const broken = await privacyPolicy();
  (broken.sections as Section[]).pop();
  await lake.createOrReplace(broken as SanityDocument);

  const refused = await postWebhook(baseURL!, { _type: 'privacyPolicy', _id: 'privacyPolicy' });
  expect(refused.status).toBe(503);
  expect((await refused.json()).problems.length).toBeGreaterThan(0);
  await page.reload();
  expect(await page.locator('article').textContent()).toBe(lastGood);
  expect(problems).toEqual([]);
});
