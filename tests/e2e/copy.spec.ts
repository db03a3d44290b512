import { type Page } from '@playwright/test';

import { POLICY_ID, VERSION_TYPE, versionId } from '../../lib/policy/policy-record';
import { CONTENT_TYPES } from '../../lib/shared/content-types';
import { changesPath, ROUTES, versionPath } from '../../lib/shared/public-pages';

import { E2E_CONTENT_FILE, SEED_FILE, postWebhook, readDataset, resetContent, writeDataset, type Doc } from '../../testkit/dataset';
import { postForm } from '../../testkit/forms';
import { SEED } from '../../testkit/seed-copy';
import { dialogParts } from './support/dialog';
import { mailTo, onServer } from './support/mail';
import { expect, test } from '../../testkit/test';

/**
 * An editor can change every sentence a visitor sees: every string of the seed is marked (as an editor
 * would edit it), published through the webhook, and then no visible text on the pages, in the request
 * dialog's states, in the sign-up form's states, in the subscription's emails and pages, on the error
 * page or on the 404 page may lack the mark. A text without one lives in code. Texts without letters
 * (step numbers, "©", "404") are layout.
 */

const MARK = '✎';

// The tests share the marked dataset (Playwright's one worker; after a failure the next worker marks it
// again), and the seed is put back and published when the worker ends.

/** Keys whose strings are not text: identifiers, targets, choices the code compares, Portable Text structure. */
const NOT_TEXT = new Set([
  '_id',
  '_type',
  '_key',
  '_ref',
  '_rev',
  '_createdAt',
  '_updatedAt',
  'href',
  'icon',
  'requestType',
  'lastUpdated',
  // The site's time zone (Site settings): a name, not a text.
  'timeZone',
  // The policy's record of versions (lib/policy/policy-record.ts): its dates and times.
  'date',
  'publishedAt',
  'correctedAt',
  'replacedAt',
  'style',
  'listItem',
  'marks',
  // The site's languages: tags and directions are identifiers (a language's name is text).
  'language',
  'tag',
  'direction',
  'defaultLanguage',
  'governingLanguage',
]);

function marked(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return NOT_TEXT.has(key) ? value : `${MARK}${value}`;
  if (Array.isArray(value)) return value.map((item) => marked(item, key));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, marked(item, name)]));
  return value;
}

/**
 * Visible text nodes with a letter in them and no mark. Text nodes, not lines: "© 2026 ✎Hallway. All
 * rights reserved." is one line of several nodes, and only the product name would be marked in it. A
 * sentence with a name in it (<bdi>, which keeps the name's own direction) is one text: "✎Search “" and
 * "” in the App Store" are the two ends of one, around the name. Dates are formatted by code (<time>), a
 * textarea holds what the visitor typed, and hidden elements (a closed dialog, the honeypot) are not seen.
 */
async function unmarkedTexts(page: Page): Promise<string[]> {
  return page.evaluate((mark) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = (parent?.querySelector(':scope > bdi') ? parent.textContent : node.textContent)?.trim() ?? '';
      if (!parent || !/\p{L}/u.test(text) || text.includes(mark)) continue;
      if (parent.closest('script, style, noscript, template, time, textarea') || !parent.checkVisibility()) continue;
      found.push(text);
    }
    return found;
  }, MARK);
}

/** Texts that are read out or shown without being text nodes: the title, labels, placeholders, the share image's description. */
async function unmarkedAttributes(page: Page): Promise<string[]> {
  return page.evaluate((mark) => {
    const values = [
      document.title,
      ...[...document.querySelectorAll('[aria-label], [placeholder]')].flatMap((element) => [
        element.getAttribute('aria-label'),
        element.getAttribute('placeholder'),
      ]),
      ...[...document.querySelectorAll('meta[property="og:image:alt"], meta[name="twitter:image:alt"], meta[name="description"]')].map(
        (meta) => meta.getAttribute('content'),
      ),
    ];
    return values.filter((value): value is string => !!value && /\p{L}/u.test(value) && !value.includes(mark));
  }, MARK);
}

async function expectAllMarked(page: Page, where: string) {
  expect(await unmarkedTexts(page), `visible texts without the mark on ${where}`).toEqual([]);
  expect(await unmarkedAttributes(page), `titles, labels and descriptions without the mark on ${where}`).toEqual([]);
}

/** Holds the next POST to `path` until the returned function is called. */
async function holdPosts(page: Page, path: string): Promise<() => void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(path, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    await released;
    await route.continue();
  });
  return release;
}

type Section = { _key: string; heading: string; body: { children: { text: string }[] }[] };

/**
 * A version of the policy before the seed's, so that the pages of an earlier version and of what changed
 * have something to show: the seed's policy with one section it lacks, one it has that the seed dropped,
 * and a sentence more in the first, each marked as the rest (a diff's pieces are text nodes of their own).
 */
function earlierVersion(policy: Doc): Doc {
  const sections = structuredClone(policy.sections) as Section[];
  sections[0]!.body[0]!.children[0]!.text += ` ${MARK}A sentence the seed dropped.`;
  const dropped = { ...structuredClone(sections[2]!), _key: 'dropped', heading: `${MARK}A section the seed dropped` };
  return {
    _id: versionId(EARLIER),
    _type: VERSION_TYPE,
    date: EARLIER,
    publishedAt: `${EARLIER}T09:00:00Z`,
    title: policy.title,
    summary: `${MARK}The first version.`,
    sections: [sections[0]!, dropped, ...sections.slice(2)],
  };
}

const EARLIER = '2026-11-20';
const SEED_DATE = SEED.privacy.lastUpdated!;

test.beforeAll(async ({ baseURL }) => {
  const seed = (await readDataset(SEED_FILE)).map((doc) => marked(doc) as Doc);
  await writeDataset([...seed, earlierVersion(seed.find((doc) => doc._id === POLICY_ID)!)], E2E_CONTENT_FILE);
  for (const _type of CONTENT_TYPES) {
    const response = await postWebhook(baseURL!, { _type, _id: _type });
    expect(response.status, `publish of ${_type}`).toBe(200);
  }
});

test.afterAll(async ({ baseURL, browser }) => {
  await resetContent(baseURL!);
  // Later specs read the seed: every page must be rendered from it again.
  const page = await browser.newPage();
  for (const path of ['/', '/support', '/privacy', ROUTES.versions, '/nope']) {
    await page.goto(path);
    await expect(page.locator('body'), `${path} after the seed was put back`).not.toContainText(MARK);
  }
  await page.close();
});

for (const path of ['/', '/support', '/privacy', ROUTES.versions, versionPath(EARLIER), changesPath(SEED_DATE)]) {
  test(`every text of ${path} comes from the dataset`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator('main')).toContainText(MARK);
    await expectAllMarked(page, path);
  });
}

test('the 404 page comes from the dataset', async ({ page }) => {
  const response = await page.goto('/this-page-does-not-exist');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(MARK);
  await expectAllMarked(page, 'the 404 page');
});

test('the request dialog, in every state, comes from the dataset', async ({ page }) => {
  await page.goto('/support');
  await page.locator('a[href="#request-issue"]').click();
  const parts = dialogParts(page, 'issue');
  await expect(parts.dialog).toBeVisible();
  await expectAllMarked(page, 'the opened dialog');

  // A problem the browser finds (blank fields) and one the server finds (an address it refuses).
  await parts.email.fill('someone@example.com');
  await parts.subject.fill('   ');
  await parts.message.fill('Text');
  await parts.submit.click();
  await expect(parts.status).toContainText(MARK);
  await expectAllMarked(page, 'the dialog with a blank field');

  await parts.email.fill('someone@localhost');
  await parts.subject.fill('Subject');
  await parts.submit.click();
  await expect(parts.status).toContainText(MARK);
  await expectAllMarked(page, 'the dialog with an address the server refuses');

  // A request that gets no answer: the generic failure.
  await page.route('/support', (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.continue()));
  await parts.email.fill('someone@example.com');
  await parts.submit.click();
  await expect(parts.status).toContainText(MARK);
  await expectAllMarked(page, 'the dialog after a failed submission');
  await page.unroute('/support');

  // Sending, then sent.
  const release = await holdPosts(page, '/support');
  await parts.submit.click();
  await expect(parts.submit).toBeDisabled();
  await expectAllMarked(page, 'the dialog while sending');
  release();
  // Sent: the status line fills again (it is empty while sending); the dialog closes 2 s later.
  await expect(parts.status).not.toBeEmpty();
  await expect(parts.submit).toBeEnabled();
  await expectAllMarked(page, 'the dialog once sent');
});

test('the sign-up form, in every state, comes from the dataset', async ({ page }) => {
  await page.goto('/');
  const form = page.locator('#stay-updated form');
  const email = page.locator('#subscribe-email');
  const status = form.getByRole('status');

  // Refused by the server (the browser's own check lets it through).
  await email.fill('someone@localhost');
  await form.getByRole('button').click();
  await expect(status).toContainText(MARK);
  await expectAllMarked(page, 'the sign-up form with a refused address');

  const release = await holdPosts(page, '/');
  await email.fill(`copy-${Date.now()}@example.com`);
  await form.getByRole('button').click();
  await expect(form.getByRole('button')).toBeDisabled();
  await expectAllMarked(page, 'the sign-up form while subscribing');
  release();
  await expect(form.getByRole('button')).toBeEnabled();
  await expect(status).not.toBeEmpty();
  await expectAllMarked(page, 'the sign-up form once subscribed');
});

test("the subscription's emails and the pages their links open, in every state, come from the dataset", async ({ page, baseURL }) => {
  const email = `copy-mail-${Date.now()}@example.com`;
  await postForm(baseURL!, 'subscribe', { email });
  const mail = await mailTo(email);
  expect(mail.subject).toContain(MARK);
  // Every line with words: the links' own lines are addresses, and the signature separator has none.
  const lines = mail.text.split('\n').filter((line) => /\p{L}/u.test(line) && !/^https?:\/\/\S+$/.test(line));
  expect(lines.filter((line) => !line.includes(MARK))).toEqual([]);
  const [confirmLink, unsubscribeLink] = mail.textLinks.map(onServer);

  const heading = page.getByRole('heading', { level: 1 });
  const press = async (link: string, where: string) => {
    await page.goto(link);
    await expectAllMarked(page, where);
    await page.getByRole('button').click();
    await expect(page.getByRole('button')).toHaveCount(0);
    await expect(heading).toContainText(MARK);
    await expectAllMarked(page, `${where}, answered`);
  };
  await press(confirmLink!, 'the confirmation page');
  await press(unsubscribeLink!, 'the unsubscribe page');
  await press(confirmLink!, 'the confirmation page of a link used before the unsubscribe');
  await page.goto(`${ROUTES.confirm}?token=none`);
  await expect(heading).toContainText(MARK);
  await expectAllMarked(page, 'the page of a link that is not valid');
});

test('the error page comes from the dataset', async ({ page }) => {
  await page.goto('/');
  // The sign-up action's call dies on the way: the page's error boundary takes over.
  await page.route('/', (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.continue()));
  await page.locator('#subscribe-email').fill('visitor@example.com');
  await page.locator('#stay-updated').getByRole('button').click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(MARK);
  await expectAllMarked(page, 'the error page');
});
