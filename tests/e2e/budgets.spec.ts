import { type Page } from '@playwright/test';

import { PUBLIC_PATHS } from '../../lib/shared/public-pages';
import { axeViolations } from '../../testkit/axe.ts';
import { TEST_CHROMIUM_PATH } from '../../testkit/browser.ts';
import { E2E_SERVERS } from '../../testkit/e2e-servers.ts';
import { launchLighthouseBrowser, lighthouseReport } from '../../testkit/lighthouse.ts';
import { expect, test } from '../../testkit/test.ts';

/**
 * Budgets that hold on any machine: Lighthouse accessibility, best practices and SEO at 100 (no
 * performance score here: that depends on the machine; npm run bench reports it), and axe-core
 * with no violation on each public page and inside the open support dialog.
 */

const CATEGORIES = ['accessibility', 'best-practices', 'seo'] as const;

// On `strict`, the embedded build with a dataset no test edits: Lighthouse runs in the second worker, beside
// the tests that edit `main`'s (playwright.config.ts).
test.use({ baseURL: E2E_SERVERS.strict.url });

test.describe('Lighthouse', () => {
  // One browser for the pages, which run one after the other.
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let chromium: Awaited<ReturnType<typeof launchLighthouseBrowser>> | undefined;

  test.beforeAll(async () => {
    chromium = await launchLighthouseBrowser(TEST_CHROMIUM_PATH);
  });
  test.afterAll(() => chromium?.kill());

  for (const path of PUBLIC_PATHS) {
    test(`${path}: accessibility, best practices and SEO are 100`, async ({ baseURL }) => {
      // The default (mobile) config, limited to the categories that do not depend on the machine's speed.
      const lhr = await lighthouseReport(new URL(path, baseURL).href, chromium!.port, [...CATEGORIES]);
      const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
      // Name the failing audits, so a red test says what to fix.
      const failing = CATEGORIES.flatMap((id) =>
        (lhr.categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${id}/${ref.id}: ${lhr.audits[ref.id]!.title}`),
      );
      expect({ scores, failing }).toEqual({ scores: { accessibility: 100, 'best-practices': 100, seo: 100 }, failing: [] });
    });
  }
});

async function openReportDialog(page: Page) {
  const card = page.getByRole('link', { name: /Report an Issue/ });
  const dialog = page.getByRole('dialog');
  // A click before hydration only follows the #hash; click again until the modal is really open.
  await expect(async () => {
    if (!(await page.locator('dialog:modal').count())) await card.click();
    await expect(page.locator('dialog:modal')).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('axe-core', () => {
  for (const path of PUBLIC_PATHS) {
    test(`${path} has no violations`, async ({ page }) => {
      await page.goto(path);
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test('the open support dialog has no violations', async ({ page }) => {
    await page.goto('/support');
    const dialog = await openReportDialog(page);
    await expect(dialog.getByRole('heading')).toBeVisible();
    expect(await axeViolations(page, 'dialog[open]')).toEqual([]);
  });
});
