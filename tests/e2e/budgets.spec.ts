import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import lighthouse from 'lighthouse';

import { PUBLIC_PATHS } from '../../lib/public-pages';

/**
 * Budgets that hold on any machine: Lighthouse accessibility, best practices and SEO at 100 (no
 * performance score here: that depends on the machine; npm run bench reports it), and axe-core
 * with no violation on each public page and inside the open support dialog.
 */

const CATEGORIES = ['accessibility', 'best-practices', 'seo'] as const;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

type Chromium = { port: number; process: ChildProcess; profile: string };

/** Debian's chromium with a DevTools port for Lighthouse (never a downloaded browser). */
async function launchChromium(): Promise<Chromium> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'budgets-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-dev-shm-usage',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chromium opened no DevTools port:\n${stderr}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`chromium exited with code ${code}:\n${stderr}`));
    });
  });
  return { port, process: child, profile };
}

async function stopChromium(chromium: Chromium | undefined) {
  if (!chromium) return;
  const { process: child } = chromium;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Already gone.
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  await rm(chromium.profile, { recursive: true, force: true });
}

test.describe('Lighthouse', () => {
  // One browser for the three pages, which run one after the other.
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let chromium: Chromium | undefined;

  test.beforeAll(async () => {
    chromium = await launchChromium();
  });
  test.afterAll(async () => {
    await stopChromium(chromium);
  });

  for (const path of PUBLIC_PATHS) {
    test(`${path}: accessibility, best practices and SEO are 100`, async ({ baseURL }) => {
      const result = await lighthouse(new URL(path, baseURL).href, {
        port: chromium!.port,
        hostname: '127.0.0.1',
        output: 'json',
        logLevel: 'error',
        // The default (mobile) config, limited to the categories that do not depend on the machine's speed.
        onlyCategories: [...CATEGORIES],
      });
      const lhr = result!.lhr;
      expect(lhr.runtimeError, 'Lighthouse loaded the page').toBeUndefined();
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

/** Violations as short lines: rule, impact and the first offending elements. */
function summary(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']) {
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(' | ')}`,
  );
}

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
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(summary(violations)).toEqual([]);
    });
  }

  test('the open support dialog has no violations', async ({ page }) => {
    await page.goto('/support');
    const dialog = await openReportDialog(page);
    await expect(dialog.getByRole('heading')).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).include('dialog[open]').analyze();
    expect(summary(violations)).toEqual([]);
  });
});
