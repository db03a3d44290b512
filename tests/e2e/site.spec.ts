import { type Page } from '@playwright/test';
import { SEED, SEED_CHROME, SEED_FORM, SEED_NOT_FOUND } from '../../testkit/seed-copy';
import { expect, test } from '../../testkit/test';

/** The footer's year, which the page renews daily (footer.tsx): this year's, or last year's for a day after New Year. */
const YEAR = `(${[...new Set([Date.now() - 86_400_000, Date.now()].map((time) => new Date(time).getFullYear()))].join('|')})`;

/** Fails the test on any console error or uncaught exception while the page is used. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

test.describe('landing page', () => {
  test('shows every item of the spec', async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Hallway' })).toHaveAttribute('href', '/');
    for (const [name, href] of [
      ['Features', '/#features'],
      ['Experience', '/#experience'],
      ['FAQ', '/#faq'],
      ['Support', '/support'],
    ] as const) {
      await expect(header.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect Locally, Stay Anonymous');
    await expect(page.getByText("Connect with your school anonymously and discover what's happening within 3 miles of you.")).toBeVisible();
    await expect(page.getByText('App Store', { exact: true })).toBeVisible();
    await expect(page.getByText('Play Store', { exact: true })).toBeVisible();

    const features = page.locator('#features');
    await expect(features.getByRole('heading', { level: 3 })).toHaveText([
      '3-Mile Radius',
      'Real-time Feed',
      'Community First',
      'Privacy & Safety',
    ]);

    await expect(page.getByRole('heading', { name: 'Stay Updated' })).toBeVisible();
    const email = page.getByPlaceholder('Enter your email');
    await expect(email).toHaveAttribute('type', 'email');
    await expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible();

    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('heading', { level: 2 })).toHaveText(['Legal', 'Company', 'Follow Us']);
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    await expect(footer.getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/support');
    for (const label of ['Terms of Service', 'Community Guidelines', 'About Us', 'Careers', 'Twitter', 'Instagram', 'LinkedIn']) {
      await expect(footer.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(footer.getByText(new RegExp(`© ${YEAR} Hallway`))).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('the header anchors and the down arrow land on their sections', async ({ page }) => {
    await page.goto('/');
    for (const [name, id] of [
      ['Experience', 'experience'],
      ['FAQ', 'faq'],
      ['Features', 'features'],
    ] as const) {
      await page.getByRole('banner').getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`#${id}$`));
      await expect(page.locator(`#${id}`)).toBeInViewport();
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'Scroll to the features' }).click();
    await expect(page.locator('#features h2')).toBeInViewport();
    await expect(page.locator('#experience')).toContainText('The Experience');
    await expect(page.locator('#faq')).toContainText('Is it really anonymous?');
  });

  test('scrolls smoothly unless the visitor asks for reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('/');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('smooth');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
  });
});

test.describe('support page', () => {
  test('shows the heading, three cards, the contact box and the FAQ', async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto('/support');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('How can we help?');
    for (const title of ['Report an Issue', 'General Feedback', 'Feature Requests']) {
      await expect(page.getByRole('link', { name: new RegExp(title) })).toBeVisible();
    }
    const contact = page.getByRole('region', { name: 'Contact Information' });
    await expect(contact).toContainText('We typically reply within 24 hours on business days.');
    await expect(contact).toContainText('Monday to Friday, 9:00 AM to 6:00 PM EST');
    const faq = page.locator('#faq dt');
    await expect(faq).toHaveCount(3);
    await expect(page.locator('#faq')).toContainText('device type, OS version and app version');
    await expect(page.locator('#faq')).toContainText('technical feasibility');
    await expect(page.getByRole('link', { name: SEED_CHROME.backHome })).toHaveAttribute('href', '/');
    await expect(page.getByRole('contentinfo')).toContainText(new RegExp(`© ${YEAR}`));
    expect(problems).toEqual([]);
  });
});

test.describe('privacy page', () => {
  test('shows the title, the editor-set date and seven numbered sections', async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
    await expect(page.getByText(`${SEED.privacy.lastUpdatedLabel} November 22, 2026`)).toBeVisible();
    await expect(page.locator('article h2')).toHaveText([
      '1. Introduction',
      '2. Information We Collect',
      '3. How We Use Your Information',
      '4. Data Retention',
      '5. Data Security',
      '6. Your Rights',
      '7. Contact Us',
    ]);
    await expect(page.locator('article')).toContainText('within a 3-mile radius of you');
    await expect(page.locator('article')).toContainText('after 30 days of inactivity');
    await expect(page.getByRole('region', { name: '7. Contact Us' }).getByRole('link', { name: 'Support page' })).toHaveAttribute(
      'href',
      '/support',
    );
    await expect(page.getByRole('link', { name: SEED_CHROME.backHome })).toHaveAttribute('href', '/');
    expect(problems).toEqual([]);
  });
});

test.describe('other routes', () => {
  for (const path of ['/nope', '/support/extra', '/privacy-policy', '/index.html']) {
    test(`${path} answers a designed 404`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(SEED_NOT_FOUND.heading);
      await expect(page.getByRole('link', { name: SEED_NOT_FOUND.homeLink })).toHaveAttribute('href', '/');
    });
  }

  test('/studio answers 200, is never indexed, and has its own layout', async ({ request }) => {
    // What it shows in a browser, the real Studio on the local lake: studio.spec.ts.
    const response = await request.get('/studio');
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<meta name="robots" content="noindex/);
    // No site header or footer.
    expect(html).not.toMatch(/<header|<footer/);
  });
});

test.describe('keyboard and small screens', () => {
  test('keyboard users can skip to content and reach every header link', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: SEED_CHROME.skipLink })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Hallway' })).toBeFocused();
    for (const name of ['Features', 'Experience', 'FAQ', 'Support']) {
      await page.keyboard.press('Tab');
      await expect(page.getByRole('banner').getByRole('link', { name, exact: true })).toBeFocused();
    }
  });

  test('a support card opens its form from the keyboard, and Escape returns focus to the card', async ({ page }) => {
    await page.goto('/support');
    const card = page.getByRole('link', { name: /Report an Issue/ });
    await card.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Report an Issue' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel(SEED_FORM.emailLabel)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(card).toBeFocused();
  });

  for (const path of ['/', '/support', '/privacy']) {
    test(`${path} fits a phone screen without sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
});
