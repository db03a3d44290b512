import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { type Page, type Response } from '@playwright/test';

import { localePath } from '../../lib/shared/languages';
import { PUBLIC_PATHS } from '../../lib/shared/public-pages';
import { partSent } from '../../testkit/part-sent.ts';
import {
  HTML_BUDGET_BYTES,
  inlineStyleBytes,
  pageAssets,
  pageBytes,
  renderBlockingRequests,
  siteStylesheet,
  STYLESHEET_BUDGET_BYTES,
  stylesheetCopies,
  stylesheetProblems,
} from '../../testkit/page-bytes.ts';
import { E2E_SERVERS, WEBHOOK_SECRET } from '../../testkit/e2e-servers';
import { LAKE_ORIGIN, LAKE_TOKEN } from '../../testkit/hosted';
import { lakeTls } from '../../testkit/lake-tls';
import { layoutShifts } from '../../testkit/layout-shifts';
import { PHASE_TIMEOUT_MS } from '../../testkit/studio';
import { expect, test } from '../../testkit/test.ts';

/**
 * JavaScript budgets of the public pages:
 *   (a) no public page loads any Sanity Studio code (the Studio is only for /studio);
 *   (b) `/` loads at most 20 KB (gzip) more JavaScript than an empty Next page;
 * and what a page's first paint waits for: its HTML alone, whose weight is held to a budget.
 */

const BUDGET_BYTES = 20 * 1024;

/**
 * Strings only Studio bundles contain, found by grepping the built chunks of /studio and checked
 * absent from the public pages' chunks (Next 16.4 / sanity 5.31):
 *   - the structure tool's inspector and validation ids, in sanity's core and structure chunks;
 *   - the Studio's own English UI texts;
 *   - next-sanity's Studio wrapper (the <NextStudio> layout component).
 * The last test below proves each one is present in what /studio loads, so this check can fail.
 */
const STUDIO_MARKERS = ['sanity/structure/', 'Sanity Studio', 'NextStudioLayout'] as const;

type Script = { url: string; body: string };

function studioMarkersIn(scripts: Script[]): string[] {
  return scripts.flatMap((script) =>
    STUDIO_MARKERS.filter((marker) => script.body.includes(marker)).map((marker) => `${script.url} contains "${marker}"`),
  );
}

/**
 * What the page at `address` (the server at `origin`, or a proxy of it) loads: the scripts its HTML references,
 * plus whatever the browser loads afterwards (lazy chunks).
 */
async function loadedScripts(page: Page, origin: string, address: string): Promise<Script[]> {
  const loaded = new Map<string, Response>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.request().resourceType() === 'script' && url.pathname.startsWith('/_next/') && response.ok())
      loaded.set(url.href, response);
  });
  await page.goto(address);
  await page.waitForLoadState('networkidle');
  const scripts: Script[] = (await pageAssets(origin, new URL(address).pathname)).scripts;
  for (const [url, response] of loaded) {
    if (!scripts.some((script) => script.url === url)) scripts.push({ url, body: await response.text() });
  }
  return scripts;
}

// The embedded build, and the build configured for a Sanity project, whose layout imports Live and overlays.
const BUILDS = [
  ['embedded', E2E_SERVERS.main],
  ['hosted', E2E_SERVERS.hosted],
] as const;

test.describe('no Studio code on public pages', () => {
  // The hosted Studio talks to the stand-in lake over HTTPS with its own certificate: refused, the Studio
  // retried until it gave up, and the page settled only then (over 30 s on a busy machine).
  test.use({ ignoreHTTPSErrors: true });

  test('/studio with a project configured answers 200, shows its sign-in, and loads the markers (so the check of each page can fail)', async ({
    page,
  }) => {
    // The Studio loads its code in steps, the next after its sign-in check: the page can be quiet for half a
    // second (networkidle) before the Studio's own chunks. So this waits for the chunks themselves.
    test.setTimeout(60_000);
    const bodies: Promise<string>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script' && response.ok()) bodies.push(response.text().catch(() => ''));
    });
    const response = await page.goto(new URL('/studio', E2E_SERVERS.hosted.url).href);
    expect(response?.status()).toBe(200);
    // The Studio renders in the browser only. Nobody can sign in offline: its sign-in screen, with sanity.io's
    // providers, is as far as it gets here (the Studio tests sign in with a token: studio.spec.ts).
    await expect(page.getByText('Choose login provider')).toBeVisible({ timeout: PHASE_TIMEOUT_MS });
    await expect(page.getByRole('link', { name: /Google/ })).toBeVisible();
    const missing = async () => {
      const texts = await Promise.all(bodies);
      return STUDIO_MARKERS.filter((marker) => !texts.some((text) => text.includes(marker)));
    };
    await expect
      .poll(missing, { message: 'Studio markers not found in /studio: pick new ones by grepping its chunks', timeout: 45_000 })
      .toEqual([]);
  });
});

test.describe('the first paint waits for the HTML alone', () => {
  // Through nginx's cache too: tests/e2e/stack.spec.ts checks the pages it serves the same way.
  for (const [build, { url: origin }] of BUILDS) {
    for (const pagePath of PUBLIC_PATHS) {
      test(`${pagePath} (${build}) asks for no render-blocking stylesheet or script, and carries its styles: at most ${STYLESHEET_BUDGET_BYTES / 1024} KB, for the supported browsers only`, async () => {
        const html = await (await fetch(new URL(pagePath, origin))).text();
        expect(renderBlockingRequests(html), 'requests the browser waits for before its first paint').toEqual([]);
        expect(inlineStyleBytes(html), 'CSS in the page itself (no flash of unstyled content)').toBeGreaterThan(0);
        // The <style>, and Next's documented copy in the RSC payload: a third, the error page's, was the whole
        // stylesheet again (app/global-error.css).
        expect(stylesheetCopies(html), 'copies of the stylesheet in the HTML').toBeLessThanOrEqual(2);
        // No fallback for an older browser, no theme variables, no composing utilities, no preflight (app/globals.css).
        expect(stylesheetProblems(siteStylesheet(html)), 'what the stylesheet carries').toEqual([]);
      });

      // Sent in parts on one build: the paint held until a block is whole is the stylesheet's, the same on
      // both; the hosted build's own layout (Live, the overlays) shows in its shifts as it loads whole.
      const inParts = build === 'embedded';
      test(`${pagePath} (${build}) loads no Studio code, and shifts no layout while it loads${inParts ? ', sent in parts,' : ''} and hydrates`, async ({
        page,
      }) => {
        const proxy = inParts ? await partSent(origin) : null;
        const scripts = await loadedScripts(page, origin, new URL(pagePath, proxy?.url ?? origin).href);
        const shifts = await layoutShifts(page);
        // Each block hidden while it is parsed (app/globals.css, .paint-whole) shows once it is whole: one with
        // no next sibling would stay hidden.
        const blocks = await page
          .locator('.paint-whole')
          .evaluateAll((elements) =>
            elements.map((element) => ({ next: element.nextElementSibling !== null, visibility: getComputedStyle(element).visibility })),
          );
        // What is below the first screen is laid out only as it comes near (app/globals.css, .below-fold).
        const footerVisibility = await page.locator('footer').evaluate((footer) => getComputedStyle(footer).contentVisibility);
        await proxy?.close();
        expect(footerVisibility, 'content-visibility of the footer').toBe('auto');
        expect(blocks.length, 'blocks painted whole').toBeGreaterThan(0);
        expect(blocks.filter((block) => !block.next || block.visibility !== 'visible')).toEqual([]);
        expect(shifts, 'layout shifts').toEqual([]);
        expect(scripts.length, 'the page loads scripts at all').toBeGreaterThan(0);
        expect(studioMarkersIn(scripts)).toEqual([]);
      });
    }
  }
});

/**
 * The floor: the gzip JS of the empty page of bench/fixture, read from bench/fixture-floor.json.
 * That file is committed rather than measured here because measuring it needs a second Next build
 * and server (the fixture is not running during the browser tests), and it only changes with Next or
 * React themselves. `npm run bench -- pages` re-measures it and rewrites the file; the version check
 * below says when that is due.
 */
type Floor = { next: string; react: string; jsGzip: number };

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.resolve(file), 'utf8')) as T;
}

test('/ loads at most 20 KB more gzip JavaScript than an empty Next page', async ({ baseURL }) => {
  const floor = readJson<Floor>('bench/fixture-floor.json');
  const installed = {
    next: readJson<{ version: string }>('node_modules/next/package.json').version,
    react: readJson<{ version: string }>('node_modules/react/package.json').version,
  };
  expect(
    { next: floor.next, react: floor.react },
    'bench/fixture-floor.json was measured with another Next or React: run npm run bench -- pages and commit it',
  ).toEqual(installed);

  const bytes = await pageBytes(baseURL!, '/');
  const limit = floor.jsGzip + BUDGET_BYTES;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`/ gzip JS ${kb(bytes.js)} in ${bytes.scripts.length} files; empty page ${kb(floor.jsGzip)}; limit ${kb(limit)}`);
  expect(bytes.js, `gzip JS of / (empty page ${kb(floor.jsGzip)} + ${kb(BUDGET_BYTES)} = ${kb(limit)})`).toBeLessThanOrEqual(limit);
  expect(bytes.scripts.length, 'the measurement found the page scripts').toBeGreaterThan(0);
});

test(`each public page, in each of the seed's languages, its stylesheet inlined, has at most ${HTML_BUDGET_BYTES / 1024} KB of gzip HTML and links no CSS file`, async ({
  baseURL,
}) => {
  for (const pagePath of ['en', 'es'].flatMap((tag) => PUBLIC_PATHS.map((path) => localePath(path, tag, { defaultLanguage: 'en' })))) {
    const bytes = await pageBytes(baseURL!, pagePath);
    console.log(
      `${pagePath}: gzip HTML ${(bytes.html / 1024).toFixed(1)} KB (${bytes.raw.html} bytes raw), CSS files ${bytes.styles.length}`,
    );
    expect(bytes.html, `gzip HTML of ${pagePath}`).toBeLessThanOrEqual(HTML_BUDGET_BYTES);
    expect(bytes.styles, `stylesheets ${pagePath} links`).toEqual([]);
  }
});

/** Every JavaScript file a build sends to browsers. */
function browserBundles(distDir: string): { file: string; text: string }[] {
  const dir = path.join(distDir, 'static');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file: path.join(dir, file), text: readFileSync(path.join(dir, file), 'utf8') }));
}

test('no server secret is in any browser bundle of either build', () => {
  // The hosted build is made with the server's read token set (hostedEnv); the webhook secret is the servers'.
  const secrets = [LAKE_TOKEN, WEBHOOK_SECRET, lakeTls().key.split('\n')[1]!];
  const hosted = browserBundles(E2E_SERVERS.hosted.distDir);
  const leaks = [...browserBundles(E2E_SERVERS.main.distDir), ...hosted].flatMap(({ file, text }) =>
    secrets.filter((secret) => text.includes(secret)).map((secret) => `${file} contains ${secret.slice(0, 6)}…`),
  );
  expect(leaks).toEqual([]);
  // The public settings the build inlines are there, so the search sees what a build writes into its bundles.
  expect(hosted.some(({ text }) => text.includes(LAKE_ORIGIN))).toBe(true);
});
