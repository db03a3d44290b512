import path from 'node:path';

import { readDataset, SEED_FILE, type Doc } from '../../testkit/dataset.ts';
import { E2E_SERVERS } from '../../testkit/e2e-servers.ts';
import { readStore } from '../../testkit/store.ts';
import { sendSpanishRequest } from './support/dialog.ts';
import { expect, test } from '../../testkit/test.ts';

import { localePath } from '../../lib/shared/languages.ts';
import { PUBLIC_PATHS, ROUTES } from '../../lib/shared/public-pages.ts';

/**
 * The site in its languages, with the seed (English, the default, and Spanish), on both builds: the
 * embedded default and the one configured for a Sanity project (its stand-in lake). A Spanish-speaking
 * parent reads the pages in Spanish under /es, meets a mistyped address in Spanish, sends the support form
 * in Spanish, and every page names its versions in the others, in its <head> and in the sitemap.
 */

const DATA_DIR = path.resolve(process.cwd(), process.env.DATA_DIR || '.data/e2e');

const seed = await readDataset(SEED_FILE);
const doc = (id: string) => seed.find((each) => each._id === id) as Doc & Record<string, any>;
const SITE = { defaultLanguage: 'en' };
const SPANISH = { landing: doc('landingPage-es'), support: doc('supportPage-es'), settings: doc('siteSettings-es') };

for (const [build, server] of [
  ['embedded', E2E_SERVERS.main],
  ['hosted', E2E_SERVERS.hosted],
] as const) {
  test.describe(`the ${build} build`, () => {
    // The hosted build's lake answers over HTTPS with its own certificate (testkit/lake-tls.ts).
    test.use({ baseURL: server.url, ignoreHTTPSErrors: true });

    test('a Spanish-speaking parent reads /es in Spanish, with <html lang="es">, and a link to the same page in English', async ({
      page,
    }) => {
      await page.goto('/es');
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(SPANISH.landing.hero.headline);
      const languages = page.getByRole('navigation', { name: SPANISH.settings.chrome.languageNav });
      await expect(languages.getByRole('link', { name: 'Español' })).toHaveAttribute('aria-current', 'page');
      await languages.getByRole('link', { name: 'English' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(doc('landingPage').hero.headline);
    });

    test('every page names itself in each language (hreflang, x-default), and each of those names it back', async ({ request }) => {
      const sitemap = await (await request.get('/sitemap.xml')).text();
      for (const pathname of PUBLIC_PATHS) {
        for (const tag of ['en', 'es']) {
          const at = localePath(pathname, tag, SITE);
          expect(sitemap, at).toContain(`${at === '/' ? '' : at}</loc>`);
          const html = await (await request.get(at)).text();
          const alternates: Record<string, string> = Object.fromEntries(
            [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"/g)].map(([, lang, href]) => [
              lang!,
              new URL(href!).pathname,
            ]),
          );
          expect(alternates, at).toEqual({ en: pathname, es: localePath(pathname, 'es', SITE), 'x-default': pathname });
          for (const href of Object.values(alternates)) {
            const other = await request.get(href, { maxRedirects: 0 });
            expect(other.status(), href).toBe(200);
            expect(await other.text(), href).toContain(`hrefLang="${tag}" href="`);
          }
        }
      }
    });

    test('a path in a language the site does not have, or spelt otherwise, is a 404', async ({ request }) => {
      for (const pathname of ['/xx', '/ES', '/es-ZZ', '/en', '/es/..%2f', '/xx/support', '/index.html', '/es/nope']) {
        expect((await request.get(pathname, { maxRedirects: 0 })).status(), pathname).toBe(404);
      }
      // The default language's segment is no address of its own.
      expect((await request.get(`/_default${ROUTES.support}`, { maxRedirects: 0 })).headers().location).toBe(ROUTES.support);
    });

    test('a mistyped address under /es answers 404 in Spanish, with lang="es", the first time and from the kept copy', async ({ page }) => {
      for (const round of [1, 2])
        for (const pathname of ['/es/nope', '/es/privacy/versions/nope', '/es/subscription/nope', '/es/x']) {
          const response = await page.goto(pathname);
          expect(response?.status(), `${pathname}, round ${round}`).toBe(404);
          await expect(page.locator('html')).toHaveAttribute('lang', 'es');
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(SPANISH.settings.notFound.heading);
          await expect(page.getByRole('link', { name: SPANISH.settings.notFound.homeLink })).toHaveAttribute('href', '/es');
        }
    });

    test('the Spanish feed of the policy says it is Spanish', async ({ request }) => {
      const feed = await (await request.get(localePath(ROUTES.feed, 'es', SITE))).text();
      expect(feed).toMatch(/<feed [^>]*xml:lang="es"/);
    });
  });
}

test("the support form in Spanish stores the request with the page's language", async ({ page }) => {
  const subject = `Pregunta ${Date.now().toString(36)}`;
  await sendSpanishRequest(page, '', { email: 'madre@example.com', subject, message: '¿Cómo funciona la app?' });
  await expect
    .poll(() => readStore<{ language: string }>(DATA_DIR, 'select language from public.support_requests where subject = $1', [subject]))
    .toEqual([{ language: 'es' }]);
});
