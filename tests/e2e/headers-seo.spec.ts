import { type APIResponse } from '@playwright/test';

import { localePath } from '../../lib/shared/languages';
import { PUBLIC_PAGES, PUBLIC_PATHS, ROUTES, type PublicPath } from '../../lib/shared/public-pages';
import { readDataset, SEED_FILE, type Doc } from '../../testkit/dataset';
import { expect, test } from '../../testkit/test';

/**
 * Response headers on every kind of route, and what search engines and link previews read:
 * titles, descriptions, canonical URLs, sitemap, robots.txt, the share image and FAQ structured data.
 */

const NOT_FOUND = '/this-page-does-not-exist';
const SITE_ROUTES = [...PUBLIC_PATHS, NOT_FOUND, '/sitemap.xml', '/robots.txt'] as const;
const ALL_ROUTES = [...SITE_ROUTES, '/studio'] as const;

/** The origin the build was given as NEXT_PUBLIC_SITE_URL; the test server is started with its own address there. */
function siteOrigin(baseURL: string | undefined): string {
  return (process.env.NEXT_PUBLIC_SITE_URL || baseURL || '').replace(/\/+$/, '');
}

function csp(response: APIResponse): Map<string, string[]> {
  const value = response.headers()['content-security-policy'];
  expect(value, `Content-Security-Policy on ${response.url()}`).toBeTruthy();
  const directives = new Map<string, string[]>();
  for (const part of value!.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** A source that allows more than named hosts: a wildcard, a bare scheme or anything-goes. */
const isBroad = (source: string) => source.includes('*') || /^[a-z][a-z0-9+.-]*:$/i.test(source) || source === "'unsafe-eval'";

async function get(request: import('@playwright/test').APIRequestContext, path: string) {
  const response = await request.get(path, { maxRedirects: 0 });
  expect(response.status(), `status of ${path}`).toBe(path === NOT_FOUND ? 404 : 200);
  return response;
}

test.describe('security headers', () => {
  for (const path of ALL_ROUTES) {
    test(`${path} sends HSTS, nosniff, a referrer policy and a CSP`, async ({ request }) => {
      const response = await get(request, path);
      const headers = response.headers();
      expect(headers['strict-transport-security']).toMatch(/max-age=(\d+)/);
      expect(Number(/max-age=(\d+)/.exec(headers['strict-transport-security']!)![1])).toBeGreaterThanOrEqual(31_536_000);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']).toContain(headers['referrer-policy']);
      const policy = csp(response);
      expect(policy.get('object-src'), 'object-src').toEqual(["'none'"]);
      expect(policy.get('base-uri'), 'base-uri').toEqual(["'self'"]);
      expect(policy.get('default-src'), 'default-src').toEqual(["'self'"]);
    });
  }

  for (const path of SITE_ROUTES) {
    test(`${path} gets the public site's policy`, async ({ request }) => {
      const response = await get(request, path);
      const policy = csp(response);
      const scripts = policy.get('script-src') ?? [];
      expect(scripts).toContain("'self'");
      expect(scripts.filter(isBroad), 'script-src allows no wildcard, scheme or eval').toEqual([]);
      // The public pages load no script from anywhere but their own origin (the Studio's CDN stays on /studio).
      expect(scripts.filter((source) => /^https?:\/\//.test(source))).toEqual([]);
      const connect = policy.get('connect-src') ?? [];
      expect(connect).toContain("'self'");
      expect(connect.filter(isBroad), 'connect-src names its hosts').toEqual([]);
      for (const source of connect.filter((item) => item !== "'self'")) {
        // Only the configured backends: the Sanity project's API or the Supabase project.
        expect(source).toMatch(/^(https|wss):\/\/[a-z0-9-]+\.(api|apicdn)\.sanity\.io$|^(https?|wss?):\/\/[^/*\s]+$/);
      }
      if (!process.env.NEXT_PUBLIC_SANITY_PROJECT_ID && !process.env.NEXT_PUBLIC_SUPABASE_URL) {
        // With the embedded defaults the browser talks to nothing but the site itself.
        expect(connect).toEqual(["'self'"]);
      }
      expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
      expect(policy.get('form-action')).toEqual(["'self'"]);

      const permissions = response.headers()['permissions-policy'] ?? '';
      for (const feature of ['geolocation=()', 'camera=()', 'microphone=()']) expect(permissions).toContain(feature);
    });
  }

  test("/studio gets the Studio policy: never framed, and on the embedded default no host but the site's", async ({ request }) => {
    const response = await get(request, '/studio');
    const policy = csp(response);
    // Sanity's hosts are the hosted Studio's only (lib/http/security-headers.test.ts has both policies).
    expect([...policy.values()].flat().filter((source) => source.includes('sanity'))).toEqual([]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(response.headers()['x-frame-options']).toBe('DENY');
  });

  for (const path of PUBLIC_PATHS) {
    test(`${path} may be cached by a CDN`, async ({ request }) => {
      const response = await get(request, path);
      const cacheControl = response.headers()['cache-control'] ?? '';
      expect(cacheControl, `Cache-Control of ${path}`).toMatch(/(^|,)\s*s-maxage=[1-9]\d*/);
      expect(cacheControl).not.toMatch(/private|no-store|no-cache/);
    });
  }
});

const versionsCopy = (policy: Doc) => policy.versions as { listHeading: string; listDescription: string };

test.describe('SEO', () => {
  let documents: Map<string, Doc>;

  test.beforeAll(async () => {
    // The seed is what the server shows between the publishing tests, which restore it after each edit.
    documents = new Map((await readDataset(SEED_FILE)).map((doc) => [doc._id, doc]));
  });

  function expected(path: PublicPath) {
    const productName = documents.get('siteSettings')!.productName as string;
    const document = documents.get(PUBLIC_PAGES[path])!;
    // The versions list is titled by its own words, which the policy holds.
    const { title, description } =
      path === ROUTES.versions
        ? { title: versionsCopy(document).listHeading, description: versionsCopy(document).listDescription }
        : (document.seo as { title: string; description: string });
    // The landing page's title stands alone; the others carry the product name.
    return { title: path === ROUTES.home ? title : `${title} · ${productName}`, description };
  }

  for (const path of PUBLIC_PATHS) {
    test(`${path} has its own title, description, canonical URL and share image`, async ({ page, request, baseURL }) => {
      await page.goto(path);
      const { title, description } = expected(path);
      await expect(page).toHaveTitle(title);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', description);

      const canonical = page.locator('link[rel="canonical"]');
      await expect(canonical).toHaveCount(1);
      expect(new URL((await canonical.getAttribute('href'))!).href).toBe(new URL(path, siteOrigin(baseURL)).href);

      const image = await page.locator('meta[property="og:image"]').first().getAttribute('content');
      expect(image, 'og:image').toBeTruthy();
      const imageUrl = new URL(image!);
      expect(imageUrl.origin, 'og:image is an absolute URL on the public origin').toBe(new URL(siteOrigin(baseURL)).origin);
      const response = await request.get(imageUrl.pathname + imageUrl.search);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('image/png');
      expect((await response.body()).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    });
  }

  test("the sitemap lists exactly the public pages, in each of the seed's languages", async ({ request, baseURL }) => {
    const response = await get(request, '/sitemap.xml');
    expect(response.headers()['content-type']).toContain('xml');
    const locations = [...(await response.text()).matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((match) => new URL(match[1]!).href);
    const pages = ['en', 'es'].flatMap((tag) => PUBLIC_PATHS.map((path) => localePath(path, tag, { defaultLanguage: 'en' })));
    expect(locations.sort()).toEqual(pages.map((path) => new URL(path, siteOrigin(baseURL)).href).sort());
  });

  test('robots.txt keeps crawlers out of the Studio and points to the sitemap', async ({ request, baseURL }) => {
    const response = await get(request, '/robots.txt');
    const lines = (await response.text()).split('\n').map((line) => line.trim());
    // The group for every crawler: its Disallow lines up to the next User-Agent.
    const start = lines.findIndex((line) => /^user-agent:\s*\*$/i.test(line));
    expect(start, 'a User-Agent: * group').toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((line, index) => index > start && /^user-agent:/i.test(line));
    const group = lines.slice(start + 1, end < 0 ? undefined : end);
    const disallowed = group.filter((line) => /^disallow:/i.test(line)).map((line) => line.replace(/^disallow:\s*/i, ''));
    expect(disallowed).toContain('/studio');
    expect(disallowed, 'the public pages stay crawlable').not.toContain('/');
    expect(lines).toContain(`Sitemap: ${siteOrigin(baseURL)}/sitemap.xml`);
  });

  for (const path of ['/', '/support'] as const) {
    test(`${path} has FAQPage structured data with exactly the visible questions`, async ({ page }) => {
      await page.goto(path);
      const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
      const faqs = blocks.map((text) => JSON.parse(text) as Record<string, unknown>).filter((data) => data['@type'] === 'FAQPage');
      expect(faqs, 'one FAQPage block').toHaveLength(1);
      const faq = faqs[0] as {
        '@context': string;
        mainEntity: { '@type': string; name: string; acceptedAnswer: { '@type': string; text: string } }[];
      };
      expect(faq['@context']).toBe('https://schema.org');

      const questions = (await page.locator('#faq dt').allInnerTexts()).map((text) => text.trim());
      const answers = (await page.locator('#faq dd').allInnerTexts()).map((text) => text.trim());
      expect(questions.length).toBeGreaterThan(0);
      expect(faq.mainEntity.map((item) => item['@type'])).toEqual(questions.map(() => 'Question'));
      expect(faq.mainEntity.map((item) => item.name)).toEqual(questions);
      expect(faq.mainEntity.map((item) => item.acceptedAnswer.text)).toEqual(answers);
    });
  }
});
