import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { Page, TestInfo } from '@playwright/test';

import { isLanguageTag } from '../../lib/shared/languages';
import { changesPath, ROUTES } from '../../lib/shared/public-pages';
import { addDays, dayIn } from '../../lib/shared/site-time';
import { launchAppServer, type AppServer } from '../../testkit/app-server';
import { axeViolations } from '../../testkit/axe';
import {
  addArabic,
  ARABIC,
  ARABIC_SETTINGS,
  publishThroughLake,
  readDataset,
  seedCopy,
  withSentence,
  writeDataset,
  type Doc,
} from '../../testkit/dataset';
import { readMailFiles, type ReadMail } from '../../testkit/mail';
import { ownBuild } from '../../testkit/own-build';
import { APP_ROOT } from '../../testkit/paths';
import { freePort, waitForHttp } from '../../testkit/processes';
import { SEED, SEED_CHROME } from '../../testkit/seed-copy';
import { preparedDataDir } from '../../testkit/store';
import { expect, test } from '../../testkit/test';

/**
 * A language written right to left, as a translator who has just begun leaves it (Arabic: listed in the
 * settings, its landing page's headline and its emails' words translated, nothing else), on a server of its
 * own. Its pages lay out mirrored and start on the right; what is still in English says so (lang="en") and
 * runs left to right; lists indent on the side they start from; axe finds nothing, the dialog open too; the
 * emails say their language. Each page's screenshot, and the email's, is attached to the report for a
 * reader to look at. The server is hit by made-up paths while it starts, before it has read its languages.
 */

/** The site's languages written in Latin letters: on an Arabic page, words in them say which they are. */
const LATIN_LANGUAGES = new Set(['en', 'es']);

/** Made-up paths under tags the site does not have, as a scanner sends them: 150 tags, each bare and with a page. */
const MADE_UP_TAGS = Array.from(
  { length: 26 * 26 },
  (_, index) => `${String.fromCharCode(97 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))}`,
)
  .filter((tag) => isLanguageTag(tag) && !['en', 'es', ARABIC.tag].includes(tag))
  .slice(0, 150);
const MADE_UP_PATHS = MADE_UP_TAGS.flatMap((tag) => [`/${tag}`, `/${tag}${ROUTES.support}`]);

/** Each file of the server's build under server/app, by its path there. */
const buildFiles = async (distDir: string) =>
  (await readdir(path.join(APP_ROOT, distDir, 'server', 'app'), { recursive: true })).map(String);

/** GET `url` as soon as the server takes connections; its status. */
async function statusOnceUp(url: string, deadline: number): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(url, { redirect: 'manual' });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Every element with words of its own in Latin letters (English on an Arabic page), with the language
 * its nearest lang says and its direction. Names and addresses inside a sentence (<bdi>, dir="auto")
 * keep their order without a language of their own.
 */
const latinWords = (page: Page) =>
  page.evaluate(() =>
    [...document.body.querySelectorAll('*')].flatMap((element) => {
      if (element.closest('script, style, template, bdi, [dir="auto"]') || !element.checkVisibility()) return [];
      const own = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent)
        .join('')
        .trim();
      if (!/[A-Za-z]{3}/.test(own) || /[\u0600-\u06FF]/.test(own)) return [];
      return [
        { words: own.slice(0, 50), lang: element.closest('[lang]')?.getAttribute('lang'), direction: getComputedStyle(element).direction },
      ];
    }),
  );

/** Each list that shows markers, and whether it is indented on its own start side (the side its markers go). */
const listIndents = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main ul, main ol')].flatMap((list) => {
      const style = getComputedStyle(list);
      if (style.listStyleType === 'none') return [];
      const [start, end] = style.direction === 'rtl' ? [style.paddingRight, style.paddingLeft] : [style.paddingLeft, style.paddingRight];
      return [{ list: list.textContent.slice(0, 40), start: parseFloat(start) > 0, end: parseFloat(end) }];
    }),
  );

/** A page as an Arabic reader meets it: the document right to left, each English text marked and left to right, axe clean. */
async function checkArabicPage(page: Page, testInfo: TestInfo, name: string) {
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', ARABIC.tag);
  const english = await latinWords(page);
  expect(english.length, `${name}: English words to check`).toBeGreaterThan(0);
  // English, or a language's own name in the language links (Español), each marked with its language.
  expect(
    english.filter(({ lang, direction }) => !LATIN_LANGUAGES.has(lang ?? '') || direction !== 'ltr'),
    `${name}: English words not marked lang="en", or not left to right`,
  ).toEqual([]);
  expect(
    (await listIndents(page)).filter(({ start, end }) => !start || end > 0),
    `${name}: lists not indented at their start`,
  ).toEqual([]);
  expect(await axeViolations(page), name).toEqual([]);
  // The sections below the fold are laid out once near the viewport (content-visibility: auto): all of them, for the picture.
  await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
  await testInfo.attach(`${name}.png`, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
}

test.describe('a right-to-left language', () => {
  let dir: string;
  let dataDir: string;
  let contentFile: string;
  let server: AppServer;
  let build: Awaited<ReturnType<typeof ownBuild>>;
  let filesBefore: Set<string>;
  let coldStart: number[];

  /** Publishes the privacy policy through the lake's API, as a script would: `change` applied to it as published. */
  const publishPolicy = (change: (policy: Doc) => Doc) => publishThroughLake(server.origin, contentFile, 'privacyPolicy', change);

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'right-to-left-'));
    const file = (contentFile = await seedCopy(dir));
    await addArabic(file);
    // A field the Spanish landing page lacks, as one added to the schema after it was translated; and a
    // material change may be announced before every language has its text (Arabic has none).
    const docs = await readDataset(file);
    delete (docs.find((doc) => doc._id === 'landingPage-es') as Doc & { faq?: unknown }).faq;
    docs.find((doc) => doc._id === 'siteSettings')!.announceBeforeTranslations = true;
    await writeDataset(docs, file);
    dataDir = await preparedDataDir(path.join(dir, 'data'));
    build = await ownBuild();
    filesBefore = new Set(await buildFiles(build.distDir));
    const port = await freePort();
    server = await launchAppServer({ DATA_DIR: dataDir, CONTENT_FILE: file, NEXT_DIST_DIR: build.distDir }, { port });
    // Sent while it starts: each waits for the port to open, and is answered as soon as the server answers anything.
    const deadline = Date.now() + 90_000;
    coldStart = await Promise.all(MADE_UP_PATHS.map((pathname) => statusOnceUp(`${server.origin}${pathname}`, deadline)));
    await waitForHttp(`${server.origin}/`, {
      timeoutMs: 90_000,
      child: { name: 'the server', running: () => server.running(), output: () => server.output() },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await build?.remove();
    await rm(dir, { recursive: true, force: true });
  });

  test('made-up tags sent while the server starts are each a 404, and leave no file in its cache', async () => {
    expect(coldStart.filter((status) => status !== 404)).toEqual([]);
    const made = (await buildFiles(build.distDir)).filter((file) => !filesBefore.has(file));
    const tags = new Set(MADE_UP_TAGS);
    expect(made.filter((file) => tags.has(file.split(path.sep)[0]!.replace(/\..*$/, '')))).toEqual([]);
  });

  test('its pages lay out mirrored: they start on the right, the back arrow points right, and what is still English says so', async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    /** Where the back link sits in its article, and which way its arrow is drawn. */
    const backLink = async () => {
      const link = page.getByRole('link', { name: SEED_CHROME.backHome });
      const [box, article] = [await link.boundingBox(), await page.locator('article').boundingBox()];
      const scale = await link.locator('span[aria-hidden]').evaluate((arrow) => getComputedStyle(arrow).scale);
      return { fromStart: box!.x - article!.x, fromEnd: article!.x + article!.width - (box!.x + box!.width), scale };
    };

    await page.goto(`${server.origin}/privacy`);
    const ltr = await backLink();
    expect(ltr.scale).toBe('none');
    expect(ltr.fromStart).toBeLessThan(ltr.fromEnd);

    // Before its landing page is translated but for its headline; its support page and policy not yet at all.
    await page.goto(`${server.origin}/${ARABIC.tag}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ARABIC.headline);
    await checkArabicPage(page, testInfo, `${ARABIC.tag}`);

    await page.goto(`${server.origin}/${ARABIC.tag}${ROUTES.privacy}`);
    await checkArabicPage(page, testInfo, `${ARABIC.tag}${ROUTES.privacy}`);
    const rtl = await backLink();
    // Mirrored: as far from the right edge as it was from the left one, its arrow flipped.
    expect(rtl.fromEnd).toBeCloseTo(ltr.fromStart, 0);
    expect(rtl.scale).toBe('-1 1');

    await page.goto(`${server.origin}/${ARABIC.tag}${ROUTES.support}`);
    await checkArabicPage(page, testInfo, `${ARABIC.tag}${ROUTES.support}`);
    const card = SEED.support.cards![0]!;
    await page.getByRole('link', { name: new RegExp(`^${card.title}`) }).click();
    await expect(page.locator(`dialog#request-${card.requestType}`)).toBeVisible();
    await checkArabicPage(page, testInfo, `${ARABIC.tag}${ROUTES.support}, the dialog open`);
  });

  test('a field the Spanish page lacks shows in English, marked as English, in its place', async ({ page }) => {
    await page.goto(`${server.origin}/es`);
    const faq = page.locator('section#faq');
    await expect(faq.getByRole('heading', { level: 2 })).toHaveText(SEED.landing.faq!.heading!);
    await expect(faq).toHaveAttribute('lang', 'en');
    await expect(faq).toHaveAttribute('dir', 'ltr');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveAttribute('lang');
  });

  test("the policy's versions and a page of what changed, in a second version published as a script would", async ({ page }, testInfo) => {
    const date = addDays(SEED.privacy.lastUpdated!, 1);
    await publishPolicy((policy) => ({
      ...withSentence(policy, 'Reports are kept for 30 days.'),
      lastUpdated: date,
      summary: 'How long reports are kept.',
    }));

    await page.goto(`${server.origin}/${ARABIC.tag}${ROUTES.versions}`);
    await expect(page.locator('main article > ol > li')).toHaveCount(2);
    await checkArabicPage(page, testInfo, `${ARABIC.tag}${ROUTES.versions}`);
    await page.goto(`${server.origin}/${ARABIC.tag}${changesPath(date)}`);
    await expect(page.locator('main ins').first()).toBeVisible();
    await checkArabicPage(page, testInfo, `${ARABIC.tag}${changesPath(date)}`);
  });

  test('a made-up path under /ar is a 404 in Arabic; the emails of a sign-up on /ar, its confirmation and a notice, say they are Arabic', async ({
    page,
  }, testInfo) => {
    const response = await page.goto(`${server.origin}/${ARABIC.tag}/nope`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ARABIC_SETTINGS.notFound.heading);
    await checkArabicPage(page, testInfo, `${ARABIC.tag}, a made-up path`);

    const email = `parent-${Date.now()}@example.com`;
    await page.goto(`${server.origin}/${ARABIC.tag}`);
    const form = page.locator('#stay-updated form');
    await form.locator('input[type="email"]').fill(email);
    await form.locator('button[type="submit"]').click();
    await expect(form.getByRole('status')).not.toBeEmpty();
    await expect.poll(async () => (await readMailFiles(dataDir)).filter(({ to }) => to === email).length).toBe(1);
    const [mail] = (await readMailFiles(dataDir)).filter(({ to }) => to === email);
    /** An email as a reader's mail client shows it: it says it is Arabic, right to left; its picture for the report. */
    const lookAt = async (read: ReadMail, name: string) => {
      expect(read.header('content-language')).toBe(ARABIC.tag);
      expect(read.html).toMatch(/<html lang="ar" dir="rtl"/);
      await page.setContent(read.html);
      await testInfo.attach(`${name}.png`, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    };
    await lookAt(mail!, 'the confirmation email, in Arabic');
    await page.goto(`${server.origin}${new URL(mail!.textLinks[0]!).pathname}${new URL(mail!.textLinks[0]!).search}`);
    await page.getByRole('button', { name: ARABIC_SETTINGS.subscription.confirmLink }).click();
    await expect(page).toHaveURL(new RegExp(`/${ARABIC.tag}/subscription/confirmed$`));

    // A material change, announced its notice period ahead (a day more, so that no midnight moves it inside).
    await publishPolicy((policy) => ({
      ...withSentence(policy, 'Reports are kept for 14 days.'),
      lastUpdated: addDays(dayIn(Date.now(), 'UTC'), Number(SEED.settings.noticePeriodDays ?? 30) + 1),
      materialChange: true,
      summary: 'Reports are now kept for 14 days.',
    }));
    await expect.poll(async () => (await readMailFiles(dataDir)).filter(({ to }) => to === email).length).toBe(2);
    const notice = (await readMailFiles(dataDir)).find(({ to, subject }) => to === email && subject !== mail!.subject)!;
    await lookAt(notice, 'the notice of a material change, in Arabic');
    // Its summary is the record's own text, in English: so marked, its full stop stays at its end.
    expect(notice.html).toContain('<span lang="en" dir="ltr">Reports are now kept for 14 days.</span>');
    await expect(page.getByRole('link', { name: ARABIC_SETTINGS.subscription.noticeVersionLink })).toBeVisible();
  });
});
