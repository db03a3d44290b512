import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startOfDay, addDays, dayIn } from '../../lib/shared/site-time';
import { changesPath, linkResultPath, PUBLIC_PATHS, ROUTES, versionPath } from '../../lib/shared/public-pages';
import { startAppServer, type AppServer } from '../../testkit/app-server';
import { axeViolations } from '../../testkit/axe';
import { publishThroughLake, readDataset, seedCopy, withSentence, writtenDay, type Doc } from '../../testkit/dataset';
import { clockAhead, offsetToReach } from '../../testkit/fake-clock';
import { layoutShifts } from '../../testkit/layout-shifts';
import { freePort } from '../../testkit/processes';
import { fillTokens } from '../../lib/shared/tokens';
import { SEED, SEED_ES, SEED_SUBSCRIPTION as WORDS, seedLanguageName } from '../../testkit/seed-copy';
import { preparedDataDir } from '../../testkit/store';
import { postForm } from '../../testkit/forms';
import { readMail } from '../../testkit/mail';
import { startSmtpServer, type SmtpServer } from '../../testkit/smtp';
import { readStore } from '../../testkit/store';
import { answerAndErase } from '../../testkit/back-office';
import { LOCAL_EDITOR } from '@school-site/content-lake/browser';
import { sendSpanishRequest } from './support/dialog';
import { openStudio, phase, studio, studioContext } from '../../testkit/studio';
import { expect, test } from '../../testkit/test';

/**
 * A legal reviewer's material change, from the Studio to the day it takes effect, on the
 * embedded default, on a server of its own that sends its email to a real SMTP server (testkit/smtp.ts):
 * refused a day inside the notice period, and refused until Spanish has its text of that day, then
 * announced for the first day after it in English and Spanish together; then the notice on every page and
 * in the feed, the version readable as "not yet in effect", one email to each subscriber who confirmed (in
 * Spanish to the parent who signed up on a Spanish page) and none to the one who unsubscribed or the one
 * who never confirmed; and on its day the policy itself, in each language, with no deploy, webhook or
 * request to the lake. The day is reached by starting the server again with its clock a few seconds
 * before that day begins (testkit/fake-clock.ts).
 */

type VersionsWords = Required<NonNullable<typeof SEED.privacy.versions>>;
const copy = SEED.privacy.versions as VersionsWords;
const copyEs = SEED_ES.privacy.versions as VersionsWords;
const WORDS_ES = fillTokens(SEED_ES.settings.subscription as Record<string, string>, { productName: SEED.settings.productName });
const written = writtenDay;
const filled = (text: string, date: string, locale = 'en-US') => text.replace('{date}', written(date, locale));

/**
 * A zone where it is about noon now, so that no day ends while this runs: Etc/GMT-3 is three hours
 * ahead of UTC (the IANA names count the other way).
 */
function noonZone(): string {
  const ahead = (12 - new Date().getUTCHours() + 24) % 24;
  const hours = ahead > 12 ? ahead - 24 : ahead;
  return hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

test.describe('a material change, announced ahead', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });

  const timeZone = noonZone();
  const today = dayIn(Date.now(), timeZone);
  const day = addDays(today, 1);
  const summary = `Reports are now kept 60 days, ${Date.now()}.`;
  const sentence = `Reports are kept for 60 days.`;
  const sentenceEs = `Los informes se conservan 60 días.`;
  let dir: string;
  let env: Record<string, string>;
  let dataDir: string;
  let server: AppServer;
  let port: number;
  let smtp: SmtpServer;
  /** Who signs up before the announcement: one confirms, one confirms and unsubscribes, one never confirms. */
  const [told, left, silent] = ['told', 'left', 'silent'].map((who) => `${who}-${Date.now()}@example.com`) as [string, string, string];
  /** A parent who signs up on the Spanish home page. */
  const parent = `padre-${Date.now()}@example.com`;
  const mailsTo = (to: string) =>
    Promise.all(smtp.accepted.filter(({ envelopeTo }) => envelopeTo.includes(to)).map(({ raw }) => readMail(raw)));
  /** The emails to `to`, once there are `count` of them. */
  const mails = async (to: string, count: number) => {
    await expect.poll(async () => (await mailsTo(to)).length, { message: `${count} emails to ${to}` }).toBe(count);
    return mailsTo(to);
  };
  const onServer = (link: string) => `${server.origin}${new URL(link).pathname}${new URL(link).search}`;

  const html = async (pathname: string) => (await fetch(`${server.origin}${pathname}`)).text();
  /** Publishes document `id` through the API, as a script would: `change` applied to it as published. */
  const publishThroughApi = (id: string, change: (doc: Doc) => Doc) => publishThroughLake(server.origin, env.CONTENT_FILE!, id, change);

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'policy-notice-'));
    smtp = await startSmtpServer();
    dataDir = await preparedDataDir(path.join(dir, 'data'));
    env = { DATA_DIR: dataDir, CONTENT_FILE: await seedCopy(dir), SMTP_URL: smtp.url };
    port = await freePort();
    server = await startAppServer(env, { port });
    for (const email of [told, left, silent]) expect((await postForm(server.origin, 'subscribe', { email })).status).toBe(200);
    // A short notice period, and a zone where the next day is hours away, set as a script would.
    await publishThroughApi('siteSettings', (settings) => ({ ...settings, noticePeriodDays: 1, timeZone }));
  });
  test.afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('before it, one subscriber confirms through the emailed link, another confirms and unsubscribes in one click', async ({ page }) => {
    await phase('a parent signs up on the Spanish home page and confirms from the Spanish email', async () => {
      await page.goto(`${server.origin}/es`);
      await page.getByLabel(SEED_ES.landing.stayUpdated!.emailLabel!).fill(parent);
      await page.getByRole('button', { name: SEED_ES.landing.stayUpdated!.buttonLabel! }).click();
      await expect(page.getByText(SEED_ES.landing.stayUpdated!.successMessage!)).toBeVisible();
      const [confirmation] = await mails(parent, 1);
      expect(confirmation!.subject).toBe(WORDS_ES.confirmSubject);
      expect(new URL(confirmation!.textLinks[0]!).pathname).toBe(`/es${ROUTES.confirm}`);
      await page.goto(onServer(confirmation!.textLinks[0]!));
      await page.getByRole('button', { name: WORDS_ES.confirmLink }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(WORDS_ES.confirmedHeading!);
      expect(new URL(page.url()).pathname).toMatch(/^\/es\//);
    });
    for (const email of [told, left]) {
      const [confirmation] = await mails(email, 1);
      await page.goto(onServer(confirmation!.textLinks[0]!));
      await page.getByRole('button', { name: WORDS.confirmLink }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(WORDS.confirmedHeading);
    }
    const [confirmation] = await mailsTo(left);
    const oneClick = confirmation!.header('list-unsubscribe')!.replace(/^<|>$/g, '');
    expect(
      (await fetch(onServer(oneClick), { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) })).status,
    ).toBe(200);
    const states = await readStore<{ email: string; status: string }>(dataDir, 'select email, status from public.newsletter_subscribers');
    expect(Object.fromEntries(states.map(({ email, status }) => [email, status]))).toEqual({
      [told]: 'confirmed',
      [left]: 'unsubscribed',
      [silent]: 'pending',
      [parent]: 'confirmed',
    });
    const languages = await readStore<{ email: string; language: string }>(
      dataDir,
      'select email, language from public.newsletter_subscribers',
    );
    expect(languages.find(({ email }) => email === parent)!.language).toBe('es');
  });

  test('the reviewer is refused a day inside the notice period, then announces it for the first day after', async ({ browser }) => {
    const problems: string[] = [];
    const context = await studioContext(browser, { local: true, origin: server.origin }, problems);
    const editor = await context.newPage();
    await phase('open the policy', () => openStudio(editor, server.origin, 'structure/privacyPolicy', studio.input(editor, 'title')));
    await phase('a summary holding a vertical tab or a NUL, as pasted from a word processor, is refused, naming both', async () => {
      const box = studio.field(editor, 'summary').locator('textarea');
      for (const [text, named] of [
        ['Line one\u000Bline two', 'vertical tab'],
        ['Kept\u0000 60 days', 'NUL character'],
      ] as const) {
        await box.fill(text);
        await expect(studio.publish(editor)).toBeDisabled();
        await studio.field(editor, 'summary').locator('[data-testid="input-validation-icon-error"]').hover();
        await expect(editor.getByText(`summary holds a ${named}`)).toBeVisible();
      }
    });
    await phase('marked material, today is refused, naming the earliest day', async () => {
      await editor.getByRole('checkbox', { name: 'Material change' }).check();
      await studio.input(editor, 'lastUpdated').fill(today);
      await studio.field(editor, 'summary').locator('textarea').fill(summary);
      await expect(studio.publish(editor)).toBeDisabled();
      await studio.field(editor, 'lastUpdated').locator('[data-testid="input-validation-icon-error"]').hover();
      await expect(editor.getByText(`the earliest "Last updated" date is ${day}`)).toBeVisible();
    });
    await phase('the first day after it is refused while Spanish has no text of that day', async () => {
      await studio.input(editor, 'lastUpdated').fill(day);
      // The date input takes what was typed when it loses the focus.
      await studio.input(editor, 'lastUpdated').press('Tab');
      await expect(studio.publish(editor)).toBeDisabled();
      await studio.field(editor, 'lastUpdated').locator('[data-testid="input-validation-icon-error"]').hover();
      await expect(editor.getByText(`es has no text dated ${day} yet`)).toBeVisible();
      // The form checks what was typed at once; the Studio saves it as the draft a moment later. Leaving
      // the page before that would lose the day, as it would for a reviewer who closed the tab.
      await expect
        .poll(async () => (await readDataset(env.CONTENT_FILE)).find((doc) => doc._id === 'drafts.privacyPolicy'), {
          message: 'the draft saved with the day',
        })
        .toMatchObject({ lastUpdated: day, materialChange: true, summary });
    });
    await phase('the Spanish text of that day published, the first day after it is published', async () => {
      await publishThroughApi('privacyPolicy-es', (doc) => withSentence({ ...doc, lastUpdated: day }, sentenceEs));
      // As a reviewer back from publishing it elsewhere: the policy's draft opened again, checked anew.
      await openStudio(editor, server.origin, 'structure/privacyPolicy', studio.input(editor, 'title'));
      await expect(studio.publish(editor)).toBeEnabled();
      await studio.publish(editor).click();
      await expect
        .poll(async () => (await readDataset(env.CONTENT_FILE)).find((doc) => doc._id === `privacyPolicyVersion-${day}`))
        .toMatchObject({
          material: true,
          summary,
        });
    });
    await context.close();
    expect(problems).toEqual([]);
  });

  test('until its day every page carries the notice, server-rendered, the policy stays, the version reads "not yet in effect"', async ({
    page,
  }) => {
    // Its text, for the day it takes effect: one sentence more in the first section, through the API. The
    // Spanish text is then of the version before this correction: until published again, readers of Spanish
    // get the English text of the version, with the line saying the translation is not ready.
    await publishThroughApi('privacyPolicy', (doc) => withSentence(doc, sentence));
    await expect.poll(() => html(`/es${versionPath(day)}`)).toContain(copyEs.translationPending);
    await publishThroughApi('privacyPolicy-es', (doc) => doc);
    await expect.poll(() => html(`/es${versionPath(day)}`)).toContain(sentenceEs);
    expect(await html(`/es${versionPath(day)}`)).not.toContain(copyEs.translationPending);

    const line = filled(copy.siteNotice, day);
    for (const pathname of PUBLIC_PATHS) {
      const response = await fetch(`${server.origin}${pathname}`);
      expect(response.headers.get('set-cookie'), pathname).toBeNull();
      expect(await response.text(), pathname).toContain(line);
    }
    const policyPage = await html(ROUTES.privacy);
    expect(policyPage).toContain(filled(copy.upcomingNotice, day));
    expect(policyPage).toContain(`href="${changesPath(day)}"`);
    expect(policyPage).not.toContain(sentence);
    // In Spanish: the notice in its words and dates, the Spanish text of the version in effect, and of the next.
    const spanish = await html('/es/privacy');
    expect(spanish).toContain(filled(copyEs.upcomingNotice, day, 'es'));
    expect(spanish).toContain(copyEs.governingNote);
    expect(spanish).not.toContain(sentenceEs);
    expect(await html('/es/support')).toContain(filled(copyEs.siteNotice, day, 'es'));
    expect(await html(`/es${changesPath(day)}`)).toContain(sentenceEs);
    expect(await html(versionPath(day))).toContain(filled(copy.notYetNotice, day));
    expect(await html(changesPath(day))).toContain(sentence);
    // The feed says "announced" once the store has recorded it, which follows the publish by a moment.
    await expect.poll(() => html(ROUTES.feed)).toContain(filled(copy.feedAnnounced, day));

    // In the browser: the line is there as the page paints, nothing moves, and it leads to the notice.
    await page.goto(`${server.origin}${ROUTES.home}`);
    expect(await layoutShifts(page)).toEqual([]);
    await expect(page.getByRole('note').filter({ hasText: line })).toBeVisible();
    // Inside a landmark, its link underlined: no violation on a page or a subscription's page, light or dark.
    for (const pathname of [ROUTES.home, linkResultPath('confirmed')]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        if (pathname !== ROUTES.home) await page.goto(`${server.origin}${pathname}`);
        await expect(page.getByRole('note').filter({ hasText: line })).toBeVisible();
        expect(await axeViolations(page), `${pathname}, ${colorScheme}`).toEqual([]);
      }
    }
    await page.goto(`${server.origin}${ROUTES.home}`);
    await page.getByRole('link', { name: copy.siteNoticeLink }).click();
    await expect(page.locator('#upcoming')).toContainText(summary);
  });

  test('the subscriber who confirmed is told once, with the summary, the day and links that work; the others are not', async () => {
    const [, notice] = await mails(told, 2);
    expect(notice!.text).toContain(summary);
    expect(notice!.text).toContain(written(day));
    const links = notice!.textLinks.map(onServer);
    for (const link of [versionPath(day), changesPath(day)]) {
      const target = links.find((each) => each.endsWith(link))!;
      expect((await fetch(target)).status, link).toBe(200);
    }
    // Every notice of the announcement sent: nothing is left to reach anyone later.
    await expect
      .poll(async () => readStore(dataDir, "select status from private.mail_outbox where kind = 'notice' and status <> 'sent'"))
      .toEqual([]);
    expect((await mailsTo(told)).length).toBe(2);
    expect((await mailsTo(left)).length).toBe(1);
    // Its confirmation, queued in beforeAll and never waited for until now.
    await mails(silent, 1);
    // The parent: one notice, in Spanish, whose links open the Spanish pages.
    const [, spanish] = await mails(parent, 2);
    expect(spanish!.subject).toBe(filled(WORDS_ES.noticeSubject!, day, 'es'));
    expect(spanish!.text).toContain(written(day, 'es'));
    const spanishLinks = spanish!.textLinks.map((link) => new URL(link).pathname);
    expect(spanishLinks).toEqual(expect.arrayContaining([`/es${versionPath(day)}`, `/es${changesPath(day)}`]));
    expect((await mailsTo(parent)).length).toBe(2);
  });

  test("in the Studio's back office the parent's Spanish request is answered, the notice lists the parent, and the parent's data is exported and erased", async ({
    browser,
    page,
  }) => {
    const subject = `Mis datos ${Date.now().toString(36)}`;
    await sendSpanishRequest(page, server.origin, { email: parent, subject, message: 'Quiero ver y borrar mis datos.' });
    const problems: string[] = [];
    const context = await studioContext(browser, { local: true, origin: server.origin }, problems);
    await answerAndErase(await context.newPage(), {
      origin: server.origin,
      officer: LOCAL_EDITOR,
      email: parent,
      subject,
      language: `${seedLanguageName('es')} (es)`,
      day,
      query: (sql, params) => readStore(dataDir, sql, params),
    });
    expect(problems).toEqual([]);
    await context.close();
  });

  test('on its day the policy is the new version, with no request to the lake: the server finds the day come', async () => {
    const begins = startOfDay(day, timeZone);
    await phase('start the server again, its clock seconds before the day begins', async () => {
      await server.stop();
      const { offsetMs, realAt } = offsetToReach(begins, 12_000);
      server = await startAppServer({ ...env, ...clockAhead(offsetMs) }, { port });
      if (Date.now() < realAt - 1000) expect(await html(ROUTES.privacy)).not.toContain(sentence);
      await expect
        .poll(() => html(ROUTES.privacy), { timeout: Math.max(realAt - Date.now(), 0) + 30_000, intervals: [100] })
        .toContain(sentence);
      test.info().annotations.push({ type: 'late', description: `${Date.now() - realAt} ms after the day began (polled every 100 ms)` });
    });
    const policyPage = await html(ROUTES.privacy);
    expect(policyPage).not.toContain(filled(copy.upcomingNotice, day));
    expect(await html(ROUTES.home)).not.toContain(filled(copy.siteNotice, day));
    expect(await html(ROUTES.feed)).toContain(filled(copy.feedInEffect, day));
    // In Spanish, the new version by itself: its Spanish text, no notice, and no line saying it is not ready.
    const spanish = await html('/es/privacy');
    expect(spanish).toContain(sentenceEs);
    expect(spanish).not.toContain(filled(copyEs.upcomingNotice, day, 'es'));
    expect(spanish).not.toContain(copyEs.translationPending);
    expect(await html('/es/privacy/versions/feed.xml')).toContain(filled(copyEs.feedInEffect, day, 'es'));
  });
});
