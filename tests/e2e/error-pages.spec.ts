import { GENERIC_FAILURE, REQUEST_SENT, SEED_ERROR_PAGE, SEED_FORM } from '../../testkit/seed-copy';
import { expect, test } from '../../testkit/test';

/**
 * Unexpected failures while a visitor has a page open: the answer to a form never arrives (the network
 * drops it) or is not what the page's script expects. The visitor gets the site's designed error page
 * with a way on, never a blank "Application error".
 */

test('an unexpected failure on the landing page shows the designed error page, with the header and a way home', async ({ page }) => {
  await page.goto('/');
  // The subscribe form's action call dies on the way.
  await page.route('/', (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.continue()));
  await page.locator('#subscribe-email').fill('visitor@example.com');
  await page.locator('#stay-updated').getByRole('button').click();

  await expect(page.getByRole('heading', { level: 1, name: SEED_ERROR_PAGE.heading })).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('link', { name: SEED_ERROR_PAGE.homeLink })).toHaveAttribute('href', '/');

  // Try again brings the page back once the network is back.
  await page.unroute('/');
  await page.getByRole('button', { name: SEED_ERROR_PAGE.retry }).click();
  await expect(page.locator('#stay-updated')).toBeVisible();
});

test('a request whose answer never arrives keeps the dialog open and what the visitor typed; sent again, it goes through', async ({
  page,
}) => {
  await page.goto('/support');
  await page.getByRole('link', { name: /Report an Issue/ }).click();
  const dialog = page.getByRole('dialog');
  const values = { email: 'lost-answer@example.com', subject: `No answer ${Date.now()}`, message: 'Typed before the network dropped.' };
  await dialog.getByLabel(SEED_FORM.emailLabel).fill(values.email);
  await dialog.getByLabel(SEED_FORM.subjectLabel).fill(values.subject);
  await dialog.getByLabel(SEED_FORM.messageLabel).fill(values.message);

  await page.route('/support', (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.continue()));
  await dialog.getByRole('button', { name: SEED_FORM.send }).click();
  await expect(dialog.getByRole('status')).toHaveText(GENERIC_FAILURE);
  await expect(dialog.getByRole('button', { name: SEED_FORM.error })).toBeEnabled();
  await expect(dialog.getByLabel(SEED_FORM.emailLabel)).toHaveValue(values.email);
  await expect(dialog.getByLabel(SEED_FORM.subjectLabel)).toHaveValue(values.subject);
  await expect(dialog.getByLabel(SEED_FORM.messageLabel)).toHaveValue(values.message);

  await page.unroute('/support');
  await dialog.getByRole('button', { name: SEED_FORM.error }).click();
  await expect(dialog.getByRole('button', { name: SEED_FORM.sent })).toBeVisible();
  await expect(dialog.getByRole('status')).toHaveText(REQUEST_SENT);
  await expect(dialog.getByLabel(SEED_FORM.subjectLabel)).toHaveValue('');
});
