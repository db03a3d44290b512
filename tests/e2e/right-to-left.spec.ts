import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startAppServer, type AppServer } from '../../testkit/app-server';
import { axeViolations } from '../../testkit/axe';
import { addArabic, ARABIC, seedCopy } from '../../testkit/dataset';
import { freePort } from '../../testkit/processes';
import { SEED_CHROME } from '../../testkit/seed-copy';
import { preparedDataDir } from '../../testkit/store';
import { expect, test } from '../../testkit/test';

/**
 * A language written right to left, as an editor adds one (Arabic, with its landing page translated), on a
 * server of its own: its pages lay out mirrored, start on the right, their arrows pointing the other way,
 * and axe finds nothing. Each page's screenshot is attached to the report for a reader to look at.
 */

test.describe('a right-to-left language', () => {
  let dir: string;
  let server: AppServer;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'right-to-left-'));
    const file = await seedCopy(dir);
    await addArabic(file);
    server = await startAppServer(
      { DATA_DIR: await preparedDataDir(path.join(dir, 'data')), CONTENT_FILE: file },
      { port: await freePort() },
    );
  });
  test.afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('its pages lay out mirrored: they start on the right, the back arrow points right, and axe finds nothing', async ({
    page,
  }, testInfo) => {
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

    for (const pathname of ['/ar', '/ar/support', '/ar/privacy']) {
      await page.goto(`${server.origin}${pathname}`);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
      expect(await axeViolations(page), pathname).toEqual([]);
      await testInfo.attach(`${pathname}.png`, { body: await page.screenshot(), contentType: 'image/png' });
    }
    await expect(page.getByRole('link', { name: SEED_CHROME.backHome })).toBeVisible();
    const rtl = await backLink();
    // Mirrored: as far from the right edge as it was from the left one, its arrow flipped.
    expect(rtl.fromEnd).toBeCloseTo(ltr.fromStart, 0);
    expect(rtl.scale).toBe('-1 1');

    await page.goto(`${server.origin}/ar`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ARABIC.headline);
  });
});
