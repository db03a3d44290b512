import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { type Locator, type Page } from '@playwright/test';

import { readStore } from '../../testkit/store.ts';
import { startAppServer, type AppServer } from '../../testkit/app-server.ts';
import { startSupabaseStack, supabaseEnv, type SupabaseStack } from '../../testkit/postgrest-harness.ts';

import { dialogParts } from './support/dialog.ts';
import { GENERIC_FAILURE, REQUEST_SENT, SEED_FORM, seedMessage, SUBSCRIBED } from '../../testkit/seed-copy.ts';
import { expect, test } from '../../testkit/test.ts';

/**
 * The support form and the landing page's subscribe form, on the production build, state by state
 * (spec sections 2, 4, 5, 7 and 8): with JavaScript, without it, and with the hosted backend
 * (real PostgREST over Postgres) failing and recovering under a running server.
 */

const ROOT = process.cwd();
// Same names and defaults as playwright.config.ts gives the server.
const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR || '.data/e2e');

const CARDS = [
  { card: 'Report an Issue', title: 'Report an Issue', type: 'issue' },
  { card: 'General Feedback', title: 'Send Feedback', type: 'feedback' },
  { card: 'Feature Requests', title: 'Suggest a Feature', type: 'feature' },
] as const;

const SENT_TEXT = REQUEST_SENT;
const EMPTY = seedMessage({ code: 'empty' });

type StoredRequest = { email: string; subject: string; message: string; type: string; status: string };

/** Reads the embedded store the server owns, from a copy (its open database is never touched). */
const readEmbedded = <T>(sql: string, params: unknown[] = []) => readStore<T>(DATA_DIR, sql, params);

const requestsWithSubject = (subject: string) =>
  readEmbedded<StoredRequest>('select email, subject, message, type, status from public.support_requests where subject = $1', [subject]);

const unique = (label: string) => `${label} ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function card(page: Page, name: string): Locator {
  return page.getByRole('link', { name: new RegExp(`^${name}`) });
}

type Parts = ReturnType<typeof dialogParts>;

async function fill(parts: Parts, values: { email: string; subject: string; message: string }) {
  await parts.email.fill(values.email);
  await parts.subject.fill(values.subject);
  await parts.message.fill(values.message);
}

/** Holds every POST to /support until the returned function is called. */
async function holdPosts(page: Page): Promise<{ release: () => void; posts: () => number }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let count = 0;
  await page.route('**/support', async (route) => {
    if (route.request().method() === 'POST') {
      count += 1;
      await gate;
    }
    await route.continue();
  });
  return { release, posts: () => count };
}

/** Counts POSTs to the page without changing them. */
function countPosts(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => request.method() === 'POST' && (count += 1));
  return () => count;
}

test.describe('support form with JavaScript', () => {
  for (const { card: cardName, title, type } of CARDS) {
    test(`"${cardName}" opens "${title}", shows every field and stores a request of type ${type}`, async ({ page }) => {
      await page.goto('/support');
      const link = card(page, cardName);
      await expect(link).toHaveAttribute('href', `#request-${type}`);
      await link.click();

      const parts = dialogParts(page, type);
      await expect(parts.dialog).toBeVisible();
      await expect(page.getByRole('dialog', { name: title })).toBeVisible();
      await expect(parts.dialog.getByRole('heading', { name: title })).toBeVisible();
      // The other two dialogs stay closed.
      for (const other of CARDS.filter((item) => item.type !== type)) await expect(page.locator(`#request-${other.type}`)).toBeHidden();

      await expect(parts.email).toHaveAttribute('type', 'email');
      await expect(parts.subject).toHaveAttribute('type', 'text');
      expect(await parts.message.evaluate((element) => element.tagName)).toBe('TEXTAREA');
      await expect(parts.message).toHaveAttribute('rows', '5');
      for (const input of [parts.email, parts.subject, parts.message]) await expect(input).toHaveAttribute('required', '');
      await expect(parts.cancel).toBeEnabled();
      await expect(parts.submit).toHaveText(SEED_FORM.send);
      await expect(parts.status).toHaveAttribute('aria-live', 'polite');
      await expect(parts.status).toHaveText('');
      // Focus moved into the dialog.
      expect(await parts.dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);

      const values = {
        email: `${type}@example.com`,
        subject: unique(`E2E ${type}`),
        message: `A ${type} sent by the browser test.\nSecond line.`,
      };
      await fill(parts, values);
      await parts.submit.click();
      // The embedded store opens on the first write after a server start, which can take a few seconds.
      await expect(parts.submit).toHaveText(SEED_FORM.sent, { timeout: 20_000 });
      await expect(parts.status).toHaveText(SENT_TEXT);

      const rows = await requestsWithSubject(values.subject);
      // Browsers send a textarea's line breaks as CRLF (HTML form submission); the store keeps what arrived.
      expect(rows).toEqual([{ ...values, message: values.message.replace(/\n/g, '\r\n'), type, status: 'new' }]);
    });
  }

  test('Send shows "Sending..." with Cancel and Send disabled, then "Sent!", resets the form and closes after 2 s', async ({ page }) => {
    await page.goto('/support');
    const link = card(page, 'General Feedback');
    await link.click();
    const parts = dialogParts(page, 'feedback');
    const held = await holdPosts(page);
    await fill(parts, { email: 'slow@example.com', subject: unique('Slow network'), message: 'Held by the test.' });
    await parts.submit.click();

    await expect(parts.submit).toHaveText(SEED_FORM.sending);
    await expect(parts.submit).toBeDisabled();
    await expect(parts.cancel).toBeDisabled();
    // Escape cannot close the dialog while the request is on its way.
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    await expect(parts.dialog).toBeVisible();
    await expect(parts.submit).toHaveText(SEED_FORM.sending);
    expect(held.posts()).toBe(1);

    held.release();
    await expect(parts.submit).toHaveText(SEED_FORM.sent);
    const sentAt = Date.now();
    await expect(parts.status).toHaveText(SENT_TEXT);
    await expect(parts.email).toHaveValue('');
    await expect(parts.subject).toHaveValue('');
    await expect(parts.message).toHaveValue('');
    await expect(parts.cancel).toBeEnabled();

    await expect(parts.dialog).toBeHidden({ timeout: 5_000 });
    const closedAfter = Date.now() - sentAt;
    expect(closedAfter).toBeGreaterThanOrEqual(1_500);
    expect(closedAfter).toBeLessThanOrEqual(3_500);
    await expect(link).toBeFocused();

    // Reopened: idle again.
    await link.click();
    await expect(parts.dialog).toBeVisible();
    await expect(parts.submit).toHaveText(SEED_FORM.send);
    await expect(parts.status).toHaveText('');
    await expect(parts.email).toHaveValue('');
  });

  test('whitespace-only fields show "Please fill in all fields" and "Error!" and keep what was typed, without a request', async ({
    page,
  }) => {
    const posts = countPosts(page);
    await page.goto('/support');
    await card(page, 'Report an Issue').click();
    const parts = dialogParts(page, 'issue');
    await fill(parts, { email: 'kept@example.com', subject: '   ', message: ' \n\t ' });
    await parts.submit.click();

    await expect(parts.status).toHaveText(EMPTY);
    await expect(parts.submit).toHaveText(SEED_FORM.error);
    await expect(parts.email).toHaveValue('kept@example.com');
    await expect(parts.subject).toHaveValue('   ');
    await expect(parts.message).toHaveValue(' \n\t ');
    expect(posts()).toBe(0);
  });

  test('empty fields: the browser blocks the submit; with its checks off the form says "Please fill in all fields"', async ({ page }) => {
    const posts = countPosts(page);
    await page.goto('/support');
    await card(page, 'Feature Requests').click();
    const parts = dialogParts(page, 'feature');
    await parts.submit.click();
    expect(await parts.email.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    await expect(parts.submit).toHaveText(SEED_FORM.send);
    await expect(parts.status).toHaveText('');

    // A browser without constraint validation (or a visitor removing it) still gets the spec's message.
    await parts.dialog.locator('form').evaluate((form: HTMLFormElement) => (form.noValidate = true));
    await parts.subject.fill('Only a subject');
    await parts.submit.click();
    await expect(parts.status).toHaveText(EMPTY);
    await expect(parts.submit).toHaveText(SEED_FORM.error);
    await expect(parts.subject).toHaveValue('Only a subject');
    expect(posts()).toBe(0);
  });

  test('an error stays until Cancel, which closes the dialog, clears the error and returns focus to the card', async ({ page }) => {
    await page.goto('/support');
    const link = card(page, 'Report an Issue');
    await link.click();
    const parts = dialogParts(page, 'issue');
    await fill(parts, { email: 'a@example.com', subject: 'Subject', message: '   ' });
    await parts.submit.click();
    await expect(parts.status).toHaveText(EMPTY);

    // Longer than the success auto-close, and typing does not clear it either.
    await page.waitForTimeout(2_500);
    await parts.subject.fill('Subject, edited');
    await expect(parts.dialog).toBeVisible();
    await expect(parts.status).toHaveText(EMPTY);
    await expect(parts.submit).toHaveText(SEED_FORM.error);

    await parts.cancel.click();
    await expect(parts.dialog).toBeHidden();
    await expect(link).toBeFocused();

    await link.click();
    await expect(parts.dialog).toBeVisible();
    await expect(parts.status).toHaveText('');
    await expect(parts.submit).toHaveText(SEED_FORM.send);
    await expect(parts.subject).toHaveValue('');
  });

  test('a new submit clears the error text and can succeed', async ({ page }) => {
    await page.goto('/support');
    await card(page, 'General Feedback').click();
    const parts = dialogParts(page, 'feedback');
    await fill(parts, { email: 'retry@example.com', subject: unique('Retry'), message: ' ' });
    await parts.submit.click();
    await expect(parts.status).toHaveText(EMPTY);

    const held = await holdPosts(page);
    const subject = await parts.subject.inputValue();
    await parts.message.fill('Now with a message.');
    await parts.submit.click();
    await expect(parts.submit).toHaveText(SEED_FORM.sending);
    await expect(parts.status).toHaveText('');
    held.release();
    await expect(parts.submit).toHaveText(SEED_FORM.sent);
    await expect(parts.status).toHaveText(SENT_TEXT);
    expect(await requestsWithSubject(subject)).toEqual([
      { email: 'retry@example.com', subject, message: 'Now with a message.', type: 'feedback', status: 'new' },
    ]);
  });

  test('a server-side rule (an address without a domain dot) shows its message and keeps the values', async ({ page }) => {
    await page.goto('/support');
    await card(page, 'Report an Issue').click();
    const parts = dialogParts(page, 'issue');
    // Valid for the browser's type=email check, refused by the shared validation.
    await fill(parts, { email: 'someone@localhost', subject: 'Subject', message: 'Message' });
    await parts.submit.click();
    await expect(parts.status).toHaveText('Please enter a valid email address.');
    await expect(parts.submit).toHaveText(SEED_FORM.error);
    await expect(parts.email).toHaveValue('someone@localhost');
  });

  test('Escape closes the dialog and focus returns to the card', async ({ page }) => {
    await page.goto('/support');
    const link = card(page, 'Feature Requests');
    await link.click();
    const parts = dialogParts(page, 'feature');
    await expect(parts.dialog).toBeVisible();
    await parts.subject.fill('Typed, then dismissed');
    await page.keyboard.press('Escape');
    await expect(parts.dialog).toBeHidden();
    await expect(link).toBeFocused();

    // Keyboard only: Enter on the focused card opens it again, empty.
    await page.keyboard.press('Enter');
    await expect(parts.dialog).toBeVisible();
    await expect(parts.subject).toHaveValue('');
  });
});

test.describe('support form without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the card link opens the form as a target and a submit stores the request', async ({ page }) => {
    await page.goto('/support');
    await card(page, 'General Feedback').click();
    await expect(page).toHaveURL(/\/support#request-feedback$/);
    const parts = dialogParts(page, 'feedback');
    await expect(parts.dialog).toBeVisible();
    await expect(parts.dialog.getByRole('heading', { name: 'Send Feedback' })).toBeVisible();

    const values = { email: 'nojs@example.com', subject: unique('No JavaScript'), message: 'Posted as a plain form.' };
    await fill(parts, values);
    await parts.submit.click();
    await page.waitForLoadState();

    await expect(page).toHaveURL(/\/support#request-feedback$/);
    const after = dialogParts(page, 'feedback');
    await expect(after.dialog).toBeVisible();
    await expect(after.status).toHaveText(SENT_TEXT);
    await expect(after.submit).toHaveText(SEED_FORM.sent);
    await expect(after.email).toHaveValue('');
    expect(await requestsWithSubject(values.subject)).toEqual([{ ...values, type: 'feedback', status: 'new' }]);
  });

  test('opening /support#request-issue directly shows that form; an empty-looking submit gets the server message and keeps the values', async ({
    page,
  }) => {
    await page.goto('/support#request-issue');
    const parts = dialogParts(page, 'issue');
    await expect(parts.dialog).toBeVisible();
    await expect(page.locator('#request-feedback')).toBeHidden();
    await fill(parts, { email: 'nojs-error@example.com', subject: '  ', message: 'Only a message' });
    await parts.submit.click();
    await page.waitForLoadState();

    const after = dialogParts(page, 'issue');
    await expect(after.dialog).toBeVisible();
    await expect(after.status).toHaveText(EMPTY);
    await expect(after.submit).toHaveText(SEED_FORM.error);
    await expect(after.email).toHaveValue('nojs-error@example.com');
    await expect(after.message).toHaveValue('Only a message');
  });

  test('subscribe works as a plain form', async ({ page }) => {
    await page.goto('/');
    const email = `nojs-${Date.now()}@example.com`;
    await page.getByPlaceholder('Enter your email').fill(email);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForLoadState();
    await expect(page).toHaveURL(/\/#stay-updated$/);
    await expect(page.locator('#stay-updated').getByRole('status')).toHaveText(SUBSCRIBED);
    const rows = await readEmbedded<{ email: string }>('select email from public.newsletter_subscribers where email = $1', [email]);
    expect(rows).toEqual([{ email }]);
  });
});

test.describe('subscribe form with JavaScript', () => {
  test('subscribes without a reload; the same address in other letters is a success too; a bad address gets a message', async ({
    page,
  }) => {
    await page.goto('/');
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const section = page.locator('#stay-updated');
    const input = page.getByPlaceholder('Enter your email');
    const button = section.getByRole('button', { name: 'Subscribe' });
    const status = section.getByRole('status');
    await expect(input).toHaveAttribute('type', 'email');
    await expect(status).toHaveAttribute('aria-live', 'polite');

    const address = `Reader.${Date.now()}@Example.com`;
    await input.fill(address);
    await button.click();
    await expect(status).toHaveText(SUBSCRIBED);

    await input.fill(address.toLowerCase());
    await button.click();
    await expect(status).toHaveText(SUBSCRIBED);

    await input.fill('reader@localhost');
    await button.click();
    await expect(status).toHaveText('Please enter a valid email address.');
    await expect(input).toHaveValue('reader@localhost');

    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    const rows = await readEmbedded<{ email: string }>('select email from public.newsletter_subscribers where lower(email) = lower($1)', [
      address,
    ]);
    expect(rows).toEqual([{ email: address }]);
  });
});

/**
 * Failure injection with the hosted backend: a second production server on the same build, configured
 * at run time for the local Supabase stand-in (PostgREST over Postgres), whose PostgREST is stopped and
 * started under it.
 */
test.describe('support form on the hosted backend when it fails and recovers', () => {
  test.describe.configure({ mode: 'serial' });

  let stack: SupabaseStack | undefined;
  let server: AppServer | undefined;
  let origin = '';
  let dataDir = '';

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    stack = await startSupabaseStack({ database: 'postgres' });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'e2e-supabase-'));
    server = await startAppServer({
      DATA_DIR: dataDir,
      ...supabaseEnv(stack),
    });
    origin = server.origin;
  });

  test.afterAll(async () => {
    await server?.stop();
    await stack?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const rowsInPostgres = (subject: string) =>
    stack!.query<StoredRequest>('select email, subject, message, type, status from public.support_requests where subject = $1', [subject]);

  test('a request is stored in Postgres with status "new"; none lands in the embedded store', async ({ page }) => {
    await page.goto(`${origin}/support`);
    await card(page, 'Report an Issue').click();
    const parts = dialogParts(page, 'issue');
    const values = { email: 'hosted@example.com', subject: unique('Hosted'), message: 'Through PostgREST.' };
    await fill(parts, values);
    await parts.submit.click();
    await expect(parts.submit).toHaveText(SEED_FORM.sent);
    expect(await rowsInPostgres(values.subject)).toEqual([{ ...values, type: 'issue', status: 'new' }]);
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  });

  test('with PostgREST down the visitor sees the generic failure and keeps the text; back up, the same form sends', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${origin}/support`);
    await card(page, 'Feature Requests').click();
    const parts = dialogParts(page, 'feature');
    const values = { email: 'outage@example.com', subject: unique('During an outage'), message: 'Typed while the backend was down.' };

    await stack!.stopPostgrest();
    await fill(parts, values);
    await parts.submit.click();
    await expect(parts.status).toHaveText(GENERIC_FAILURE);
    await expect(parts.submit).toHaveText(SEED_FORM.error);
    await expect(parts.email).toHaveValue(values.email);
    await expect(parts.subject).toHaveValue(values.subject);
    await expect(parts.message).toHaveValue(values.message);
    expect(await rowsInPostgres(values.subject)).toEqual([]);
    // The spec: the error is logged to the console, by an effect that runs after the status line has shown.
    await expect.poll(() => errors.some((text) => text.includes(GENERIC_FAILURE))).toBe(true);

    await stack!.startPostgrest();
    await parts.submit.click();
    await expect(parts.submit).toHaveText(SEED_FORM.sent);
    await expect(parts.status).toHaveText(SENT_TEXT);
    expect(await rowsInPostgres(values.subject)).toEqual([{ ...values, type: 'feature', status: 'new' }]);
    expect(server!.running()).toBe(true);
  });
});
