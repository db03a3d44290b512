import { randomBytes } from 'node:crypto';

import { type Page } from '@playwright/test';

import { linkResultPath, ROUTES } from '../../lib/shared/public-pages';
import { axeViolations } from '../../testkit/axe';
import { E2E_SERVERS } from '../../testkit/e2e-servers';
import { postForm } from '../../testkit/forms';
import { SEED_CHROME, SEED_SUBSCRIPTION as WORDS, SUBSCRIBED } from '../../testkit/seed-copy';
import { readStore } from '../../testkit/store';
import { mailTo, onServer } from './support/mail';
import { expect, test } from '../../testkit/test';

/**
 * The subscription on the production build's embedded default, as a subscriber meets it: the
 * sign-up, its confirmation email (an .eml file under DATA_DIR/mail: no SMTP_URL), the links of the
 * emails followed in the browser, with and without JavaScript, and a mail client's one-click unsubscribe.
 * Sending over SMTP is lib/mail/mail.contract.test.ts's; several senders and a SIGKILL, scale.spec.ts's.
 */
const { dataDir } = E2E_SERVERS.main;
const RUN = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
const address = (label: string) => `${label}-${RUN}@example.com`;

const status = async (email: string) =>
  (await readStore<{ status: string }>(dataDir, 'select status from public.newsletter_subscribers where email = $1', [email]))[0]?.status;

/** Opens a link's page and presses its button: the page's heading then gives the answer. */
async function follow(page: Page, link: string, button: string, answer: string) {
  await page.goto(onServer(link));
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(answer);
}

test.describe.configure({ mode: 'serial' });

test("a sign-up's confirmation email: both parts, RFC 8058 headers, and a link whose page changes nothing until its button confirms", async ({
  page,
}) => {
  const email = address('confirm');
  await page.goto('/');
  await page.locator('#subscribe-email').fill(email);
  await page.locator('#stay-updated').getByRole('button').click();
  await expect(page.locator('#stay-updated').getByRole('status')).toHaveText(SUBSCRIBED);

  const mail = await mailTo(email);
  expect(mail.subject).toBe(WORDS.confirmSubject);
  expect(mail.text).toContain(WORDS.confirmText);
  expect(mail.htmlLinks).toEqual(mail.textLinks);
  const [confirmLink, unsubscribeLink] = mail.textLinks;
  expect(onServer(confirmLink!)).toMatch(new RegExp(`^${ROUTES.confirm}\\?token=[\\w-]{43}$`));
  expect(mail.header('list-unsubscribe')).toBe(`<${unsubscribeLink!.replace(ROUTES.unsubscribe, ROUTES.oneClick)}>`);
  expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

  // What a link scanner does: it opens the link, and nothing changes.
  await page.goto(onServer(confirmLink!));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(WORDS.confirmHeading);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  expect(await axeViolations(page)).toEqual([]);
  expect(await status(email)).toBe('pending');

  await page.getByRole('button', { name: WORDS.confirmLink }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(WORDS.confirmedHeading);
  // The answer is a page of its own (post, redirect, get), as without JavaScript.
  await expect(page).toHaveURL(linkResultPath('confirmed'));
  await expect(page.getByRole('link', { name: SEED_CHROME.backHome })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // The same link again: the same answer (the database's: supabase/subscriptions.test.ts), nothing more.
  await follow(page, confirmLink!, WORDS.confirmLink, WORDS.confirmedHeading);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the confirmation and unsubscribe pages work as plain forms; after the unsubscribe, the confirmation link subscribes nothing', async ({
    page,
    baseURL,
  }) => {
    const email = address('nojs');
    expect((await postForm(baseURL!, 'subscribe', { email })).statusText).toBe(SUBSCRIBED);
    const [confirmLink, unsubscribeLink] = (await mailTo(email)).textLinks;

    await follow(page, confirmLink!, WORDS.confirmLink, WORDS.confirmedHeading);
    await page.goto(onServer(unsubscribeLink!));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(WORDS.unsubscribeHeading);
    await follow(page, unsubscribeLink!, WORDS.unsubscribeLink, WORDS.unsubscribedHeading);
    await follow(page, confirmLink!, WORDS.confirmLink, WORDS.usedHeading);
    expect(await status(email)).toBe('unsubscribed');
  });

  test('a link cut short, or with no token, is answered by a redirect from the server', async ({ page, request }) => {
    // A whole token's first 33 characters: what a mail client that wraps long lines leaves of the link.
    const cut = `${ROUTES.confirm}?token=${randomBytes(32).toString('base64url').slice(0, 33)}`;
    for (const link of [cut, ROUTES.confirm, `${ROUTES.unsubscribe}?token=short`, ROUTES.unsubscribe]) {
      const answer = await request.get(link, { maxRedirects: 0 });
      expect({ link, status: answer.status(), to: answer.headers().location }).toEqual({
        link,
        status: 303,
        to: expect.stringMatching(new RegExp(`${linkResultPath('invalid')}$`)),
      });
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(WORDS.invalidHeading);
    }
  });
});

test("a mail client's one-click unsubscribe (RFC 8058, no Origin) works from the header's URL; forged and malformed links answer clearly and change nothing", async ({
  page,
  request,
  baseURL,
}) => {
  const email = address('one-click');
  expect((await postForm(baseURL!, 'subscribe', { email })).statusText).toBe(SUBSCRIBED);
  const oneClick = onServer((await mailTo(email)).header('list-unsubscribe')!.slice(1, -1));
  const post = (url: string) =>
    request.post(url, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, data: 'List-Unsubscribe=One-Click' });

  for (let time = 0; time < 2; time++) {
    const answer = await post(oneClick);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['cache-control']).toBe('no-store');
    expect(await answer.text()).toContain(WORDS.unsubscribedHeading);
  }

  const forged = randomBytes(32).toString('base64url');
  const refused = await post(`${ROUTES.oneClick}?token=${forged}`);
  expect({ status: refused.status(), text: await refused.text() }).toEqual({
    status: 404,
    text: `${WORDS.invalidHeading}\n${WORDS.invalidText}\n`,
  });
  // The same post anywhere else comes from no page of this site: refused.
  expect((await post(ROUTES.unsubscribe)).status()).toBe(403);

  // A forged token shows the button, which then answers; a token no database makes, or none, is answered at once.
  await follow(page, `${ROUTES.confirm}?token=${forged}`, WORDS.confirmLink, WORDS.invalidHeading);
  for (const link of [`${ROUTES.confirm}?token=not-a-token`, ROUTES.unsubscribe]) {
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(WORDS.invalidHeading);
    await expect(page.getByRole('button')).toHaveCount(0);
  }
  // Only the answers there are have pages: any other name is the site's 404, not a page kept per name.
  expect((await request.get(`${ROUTES.subscription}/${forged}`)).status()).toBe(404);
  // Whatever the address is now (new, pending, confirmed, unsubscribed), a sign-up answers the same.
  for (const again of [address('new'), email, address('confirm')]) {
    expect((await postForm(baseURL!, 'subscribe', { email: again })).statusText).toBe(SUBSCRIBED);
  }
});
