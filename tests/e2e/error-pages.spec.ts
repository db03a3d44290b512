import { expect, test } from '@playwright/test';

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

  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');

  // Try again brings the page back once the network is back.
  await page.unroute('/');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('#stay-updated')).toBeVisible();
});
