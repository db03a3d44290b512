import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { POLICY_ID, SUMMARY_MAX, VERSION_TYPE, versionId } from '../../lib/policy/policy-record';
import { changesPath, ROUTES, versionPath, versionsPagePath } from '../../lib/shared/public-pages';
import { axeViolations } from '../../testkit/axe';
import { postWebhook, readDataset, withSentence, writeDataset, writtenDay, type Doc } from '../../testkit/dataset';
import { HTML_BUDGET_BYTES, pageBytes } from '../../testkit/page-bytes';
import { SEED, SEED_ES } from '../../testkit/seed-copy';
import { phase, watchProblems } from '../../testkit/studio';
import { STUDIO_TARGETS } from '../../testkit/studio-targets';
import { expect, test } from '../../testkit/test';

/**
 * The privacy policy's versions as visitors read them, on both builds: three versions published
 * through the API (on the hosted build, each announced by the webhook), then the list, an earlier version,
 * the changes with <ins> and <del>, the redirects of a date and the 404s, with axe on each new page. The
 * dates are days after the seed's and before any day this runs, so each is in effect when published.
 */

const FIRST = SEED.privacy.lastUpdated!;
const SECOND = '2026-11-24';
const THIRD = '2026-11-25';
const FOURTH = '2026-11-26';
const copy = SEED.privacy.versions as Required<NonNullable<typeof SEED.privacy.versions>>;
const copyEs = SEED_ES.privacy.versions as typeof copy;
/** A text of the copy with its {date}, {from} and {to} filled in. */
const filled = (text: string, dates: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => dates[name] ?? whole);
/** Each date as the pages write it. */
const day = writtenDay;
const range = (from: string, to: string) => filled(copy.inEffectRange, { from: day(from), to: day(to) });

for (const target of STUDIO_TARGETS) {
  test.describe(`the policy's versions on the ${target.name}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 60_000 });
    test.use({ baseURL: target.server.url, ignoreHTTPSErrors: true });
    test.afterAll(() => target.reset());

    const stamp = Date.now();
    const sentence = `Added in the version of ${SECOND}, ${stamp}.`;
    const summary = (date: string) => `What changed on ${date}, ${stamp}.`;

    const recorded = (date: string) => expect.poll(async () => (await target.read(versionId(date)))?.summary).toBe(summary(date));

    // The Studio's publish of a version is policy-notice.spec's (an announced one); a release's at its time,
    // publish-path.spec's. Here each build publishes as a script does; the hosted one adds the signed webhook.
    test('three publishes each add a version', async () => {
      for (const date of [SECOND, THIRD, FOURTH]) {
        const policy = (await target.read('privacyPolicy'))!;
        await target.publish({ ...(date === SECOND ? withSentence(policy, sentence) : policy), lastUpdated: date, summary: summary(date) });
        await recorded(date);
      }
    });

    test(`the list, an earlier version and its changes${target.wholeLife ? ', each with no axe violation' : ''}`, async ({ page }) => {
      const problems = watchProblems(page);
      // The same components on both builds: axe reads them once, on the embedded default.
      const accessible = async () => {
        if (target.wholeLife) expect(await axeViolations(page)).toEqual([]);
      };
      await phase('the policy links to its changes and to every version', async () => {
        await page.goto(ROUTES.privacy);
        await expect(page.locator('article')).toContainText(summary(FOURTH));
        await expect(page.getByRole('link', { name: copy.changesLink })).toHaveAttribute('href', changesPath(FOURTH));
        await expect(page.getByRole('link', { name: copy.earlierLink })).toHaveAttribute('href', ROUTES.versions);
      });
      await phase('the list, newest first', async () => {
        await page.goto(ROUTES.versions);
        const entries = page.locator('article > ol > li');
        await expect(entries).toHaveText([
          `${day(FOURTH)}${copy.currentLabel}${filled(copy.inEffectSince, { from: day(FOURTH) })}${summary(FOURTH)}`,
          `${day(THIRD)}${range(THIRD, FOURTH)}${summary(THIRD)}`,
          `${day(SECOND)}${range(SECOND, THIRD)}${summary(SECOND)}`,
          `${day(FIRST)}${range(FIRST, SECOND)}`,
        ]);
        expect(await entries.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
          ROUTES.privacy,
          versionPath(THIRD),
          versionPath(SECOND),
          versionPath(FIRST),
        ]);
        await accessible();
      });
      await phase('an earlier version, as it was published', async () => {
        await page.goto(versionPath(SECOND));
        await expect(page.getByRole('note')).toHaveText(filled(copy.notice, { from: day(SECOND), to: day(THIRD) }) + copy.currentLink);
        await expect(page.locator('article')).toContainText(sentence);
        await expect(page).toHaveTitle(`${filled(copy.versionTitle, { date: day(SECOND) })} · ${SEED.settings.productName}`);
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${versionPath(SECOND)}$`));
        await accessible();
        await page.goto(versionPath(FIRST));
        await expect(page.locator('article')).not.toContainText(sentence);
      });
      await phase('what changed: the added words in <ins>, announced, and the unchanged sections collapsed', async () => {
        await page.goto(changesPath(SECOND));
        await expect(page).toHaveTitle(`${filled(copy.changesHeading, { date: day(SECOND) })} · ${SEED.settings.productName}`);
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${changesPath(SECOND)}$`));
        // The changed paragraph read as before (without what was added) and as after (without what was removed).
        const paragraph = page.locator('p', { has: page.locator('ins') });
        const readWithout = (marks: string) =>
          paragraph.evaluate((element, selector) => {
            const copy = element.cloneNode(true) as HTMLElement;
            for (const dropped of copy.querySelectorAll(selector)) dropped.remove();
            return copy.textContent;
          }, `.sr-only, ${marks}`);
        await expect(paragraph).toHaveCount(1);
        expect(await readWithout('del')).toContain(sentence);
        expect(await readWithout('ins')).not.toContain(String(stamp));
        // Each change is announced (the word diff may mark a space or a full stop beside the sentence as removed).
        for (const label of await page.locator('ins > .sr-only, del > .sr-only').all())
          await expect(label).toHaveText(new RegExp(`^(${copy.addedWords}|${copy.removedWords}):\\s*$`));
        await expect(page.locator('ins > .sr-only')).not.toHaveCount(0);
        await expect(page.locator('details')).toHaveCount(SEED.privacy.sections!.length - 1);
        await accessible();
      });
      expect(problems).toEqual([]);
    });

    test('in Spanish, with no Spanish text of the version in effect: its English text, a line saying so, and the earlier Spanish text marked as earlier', async ({
      page,
    }) => {
      await page.goto('/es/privacy');
      await expect(page.locator('article')).toContainText(summary(FOURTH));
      await expect(page.getByRole('note').filter({ hasText: copyEs.translationPending })).toBeVisible();
      await expect(page.locator('article')).not.toContainText(copyEs.governingNote);
      const earlier = page.getByRole('link', { name: filled(copyEs.earlierTranslationLink, { date: day(FIRST, 'es') }) });
      await expect(earlier).toHaveAttribute('href', `/es${versionPath(FIRST)}`);
      await earlier.click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(SEED_ES.privacy.title!);
      await expect(page.locator('article')).toContainText(filled(copyEs.notice, { from: day(FIRST, 'es'), to: day(SECOND, 'es') }));
      await expect(page.locator('article')).toContainText(copyEs.governingNote);
    });

    test('a day names the version in effect, and every other path is a 404', async ({ request }) => {
      const get = (path: string) => request.get(path, { maxRedirects: 0 });
      for (const [day, to] of [
        ['2026-11-23', versionPath(FIRST)],
        ['2026-11-27', ROUTES.privacy],
        [FOURTH, ROUTES.privacy],
      ] as const) {
        const response = await get(versionPath(day));
        expect(response.status(), day).toBe(307);
        expect(new URL(response.headers().location!, target.server.url).pathname, day).toBe(to);
      }
      for (const path of [
        versionPath('2026-11-21'),
        versionPath('2999-01-01'),
        versionPath('2026-02-30'),
        versionPath('%2e%2e%2fetc'),
        versionPath('....'),
        versionPath('x'.repeat(5000)),
        changesPath(FIRST),
        changesPath('2026-11-23'),
        `${changesPath(SECOND)}/more`,
        versionsPagePath(2),
        `${ROUTES.versions}/page/1`,
        `${ROUTES.versions}/page/02`,
      ])
        expect((await get(path)).status(), path.slice(0, 80)).toBe(404);
      // Not one of those paths left a page in Next's cache (proxy.ts turns them away before any render).
      const kept = readdirSync(join(target.server.distDir, 'server'), { recursive: true, encoding: 'utf8' });
      expect(kept.filter((file) => /2026-02-30|2999-01-01|xxxxxxxx|%2e|\.\.\.\./i.test(file))).toEqual([]);
      // The site's headers, on a version, its changes and a 404 of the page's own.
      const site = (await get(ROUTES.privacy)).headers();
      for (const path of [versionPath(SECOND), changesPath(SECOND), versionPath('2026-11-21')]) {
        const headers = (await get(path)).headers();
        for (const name of ['content-security-policy', 'strict-transport-security', 'x-content-type-options', 'referrer-policy'])
          expect(headers[name], `${name} of ${path}`).toBe(site[name]);
      }
      // A query string changes nothing, and never shows a draft.
      const plain = await (await get(versionPath(SECOND))).text();
      const asked = await get(`${versionPath(SECOND)}?perspective=drafts&page=-1`);
      expect(asked.status()).toBe(200);
      expect(await asked.text()).toContain(sentence);
      expect(plain).toContain(sentence);
    });
  });
}

test('a record of 500 versions is listed 20 to a page, each page within the page budget', async ({ baseURL, page }) => {
  const seed = await readDataset();
  const policy = seed.find((doc) => doc._id === POLICY_ID)!;
  const daysBefore = (n: number) => new Date(Date.parse(`${FIRST}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
  // Summaries as long as the Studio allows, all different, as the least that compresses.
  const versions: Doc[] = Array.from({ length: 499 }, (_, n) => ({
    _id: versionId(daysBefore(n + 1)),
    _type: VERSION_TYPE,
    date: daysBefore(n + 1),
    publishedAt: `${daysBefore(n + 1)}T09:00:00Z`,
    title: policy.title,
    summary: `${n} ${'What changed in this version, as a legal reviewer wrote it: '.repeat(6)}`.slice(0, SUMMARY_MAX),
    sections: policy.sections,
  }));
  try {
    await writeDataset([...seed, ...versions]);
    expect((await postWebhook(baseURL!, { _type: POLICY_ID, _id: POLICY_ID })).status).toBe(200);
    for (const path of [versionsPagePath(1), versionsPagePath(2), versionsPagePath(25)]) {
      const bytes = await pageBytes(baseURL!, path);
      console.log(`${path} of 500 versions: gzip HTML ${(bytes.html / 1024).toFixed(1)} KB`);
      expect(bytes.html, path).toBeLessThanOrEqual(HTML_BUDGET_BYTES);
    }
    await page.goto(versionsPagePath(25));
    await expect(page.locator('article > ol > li')).toHaveCount(500 - 24 * 20);
    await expect(page.getByRole('link', { name: copy.newerLink })).toHaveAttribute('href', versionsPagePath(24));
    await expect(page.getByRole('link', { name: copy.olderLink })).toHaveCount(0);
    await expect(page.getByRole('link', { name: day(daysBefore(499)) })).toHaveAttribute('href', versionPath(daysBefore(499)));
    expect((await fetch(new URL(versionsPagePath(26), baseURL))).status).toBe(404);
  } finally {
    await writeDataset(seed);
    await postWebhook(baseURL!, { _type: POLICY_ID, _id: POLICY_ID });
  }
});
