import {
  E2E_CONTENT_FILE,
  SEED_FILE,
  editDocument,
  postWebhook,
  readDataset,
  resetContent,
  restoreSeed,
  writeDataset,
  type Doc,
} from '../../testkit/dataset';
import { followProcessClock } from '../../testkit/browser-clock';
import { expect, test } from '../../testkit/test';

// These tests edit the one dataset the server reads: one at a time, seed restored after each.
test.describe.configure({ mode: 'serial' });

test.afterEach(async ({ baseURL }) => resetContent(baseURL!));

type Block = { children: { text: string }[] };
type Section = { heading: string; body: Block[] };

function setPrivacyIntro(text: string) {
  return editDocument('privacyPolicy', (doc) => {
    const sections = doc.sections as Section[];
    sections[0]!.body[0]!.children[0]!.text = text;
  });
}

test('a settings edit (the radius) reaches every page that mentions it', async ({ page, baseURL }) => {
  await editDocument('siteSettings', (doc) => {
    doc.radiusMiles = 5;
  });
  await postWebhook(baseURL!, { _type: 'siteSettings', _id: 'siteSettings' });

  await page.goto('/');
  await expect(page.getByText("discover what's happening within 5 miles of you.")).toBeVisible();
  await expect(page.locator('#features h3').first()).toHaveText('5-Mile Radius');
  await page.goto('/privacy');
  await expect(page.locator('article')).toContainText('within a 5-mile radius of you');
});

test.describe('draft preview', () => {
  const SECRET = `preview-secret-${Date.now()}`;

  async function addDraftAndSecret(title: string) {
    const docs = await readDataset();
    const published = docs.find((doc) => doc._id === 'privacyPolicy')!;
    const draft: Doc = { ...structuredClone(published), _id: 'drafts.privacyPolicy', title };
    // What the Studio's Presentation tool writes before opening the preview.
    const secret: Doc = {
      _id: 'sanity-preview-url-secret.e2e',
      _type: 'sanity.previewUrlSecret',
      secret: SECRET,
      studioUrl: 'http://127.0.0.1/studio',
      _updatedAt: new Date().toISOString(),
    };
    await writeDataset([...docs, draft, secret]);
  }

  test('a drafts. document shows in draft mode and never on the public page', async ({ page, browser, baseURL }) => {
    const title = `Draft policy ${Date.now()}`;
    await addDraftAndSecret(title);
    await postWebhook(baseURL!, { _type: 'privacyPolicy', _id: 'drafts.privacyPolicy' });

    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');

    const reviewer = await browser.newContext();
    await followProcessClock(reviewer);
    const preview = await reviewer.newPage();
    await preview.goto(`/api/draft-mode/enable?sanity-preview-secret=${SECRET}&sanity-preview-pathname=/privacy`);
    await expect(preview).toHaveURL(/\/privacy$/);
    // Draft mode marks each text for click-to-edit (stega: invisible characters after it).
    await expect(preview.getByRole('heading', { level: 1 })).toContainText(title);
    await expect(preview.getByRole('status').filter({ hasText: 'Draft preview' })).toBeVisible();
    await reviewer.close();

    // A visitor still sees the published policy.
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
  });

  test('draft mode cannot be entered without the secret', async ({ page, baseURL }) => {
    await addDraftAndSecret('Should stay hidden');
    const wrong = await fetch(new URL('/api/draft-mode/enable?sanity-preview-secret=guess&sanity-preview-pathname=/privacy', baseURL), {
      redirect: 'manual',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie') ?? '').not.toContain('__prerender_bypass');
    const missing = await fetch(new URL('/api/draft-mode/enable', baseURL), { redirect: 'manual' });
    expect(missing.status).toBe(401);
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
  });
});

test.describe('a publish that cannot be rendered never replaces a good page', () => {
  const BROKEN: Array<[string, () => Promise<void>]> = [
    [
      'a malformed line in the dataset',
      async () => {
        const { appendFile } = await import('node:fs/promises');
        await appendFile(E2E_CONTENT_FILE, '{"_id": "half-written", "_type": \n');
      },
    ],
    ['the privacy policy document missing', async () => writeDataset((await readDataset()).filter((doc) => doc._id !== 'privacyPolicy'))],
    [
      'a policy that breaks the schema (six sections)',
      () =>
        editDocument('privacyPolicy', (doc) => {
          (doc.sections as Section[]).pop();
        }),
    ],
  ];

  for (const [name, breakContent] of BROKEN) {
    test(`${name}: the webhook refuses so Sanity retries, visitors keep the last good page`, async ({ page, baseURL }) => {
      await page.goto('/privacy');
      // Its text, not innerText: the sections below the fold (content-visibility: auto) are left out of
      // innerText while the browser has not laid them out, and that changes from one load to the next.
      const lastGood = await page.locator('article').textContent();

      await breakContent();
      const refused = await postWebhook(baseURL!, { _type: 'privacyPolicy', _id: 'privacyPolicy' });
      expect(refused.status).toBe(503);
      expect((await refused.json()).problems.length).toBeGreaterThan(0);

      const response = await page.goto('/privacy');
      expect(response?.status()).toBe(200);
      expect(await page.locator('article').textContent()).toBe(lastGood);

      // Fixed and published again: the edit shows on the first load after the webhook's answer.
      await restoreSeed();
      const text = `Fixed by legal review ${Date.now()}.`;
      await setPrivacyIntro(text);
      expect((await postWebhook(baseURL!, { _type: 'privacyPolicy', _id: 'privacyPolicy' })).status).toBe(200);
      await page.goto('/privacy');
      await expect(page.locator('article')).toContainText(text);
    });
  }

  test('broken settings hold back every page that shows them', async ({ page, baseURL }) => {
    await editDocument('siteSettings', (doc) => {
      delete doc.productName;
    });
    expect((await postWebhook(baseURL!, { _type: 'siteSettings', _id: 'siteSettings' })).status).toBe(503);
    const productName = (await readDataset(SEED_FILE)).find((doc) => doc._id === 'siteSettings')!.productName as string;
    for (const path of ['/', '/support', '/privacy']) {
      expect((await page.goto(path))?.status()).toBe(200);
      await expect(page.getByRole('banner')).toContainText(productName);
    }
  });
});
