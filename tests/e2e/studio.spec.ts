import { type BrowserContext, type Page, type Request } from '@playwright/test';

import { OVERLAYS_DEADLINE_MARK } from '../../app/(site)/_components/preview-marks';
import type { Doc } from '../../testkit/dataset';
import { SEED, SEED_ES } from '../../testkit/seed-copy';
import { STUDIO_TARGETS } from '../../testkit/studio-targets';
import {
  appendToFirstSection,
  discardChanges,
  openHistory,
  openStudio,
  phase,
  PHASE_TIMEOUT_MS,
  revertTo,
  expectStatus,
  STATUS,
  studio,
  studioContext,
} from '../../testkit/studio';
import { expect, test } from '../../testkit/test';

/**
 * The editors' and legal reviewers' path, in the real Sanity Studio at /studio, on both builds: the
 * embedded default (no account: the Studio edits the site's dataset through the local lake in the site's
 * own server) and the hosted build signed in with a token, whose API is the local lake playing Sanity's.
 * On both, a deep link opens the policy and every document; on the embedded default one editor page then
 * goes through a policy's life: edit, preview, publish, history, review, revert, validation, discard,
 * deletion and restore, then Releases and the Help menu. Every page listens to console errors, uncaught
 * exceptions and answers ≥ 400; on the embedded default, where nothing answers for Sanity's services,
 * every request to a host other than the site's counts too (studioContext): each test ends with none.
 * Each test names the phase it fails in.
 */

const DOCUMENTS = [
  { title: 'Site settings', field: 'productName', value: SEED.settings.productName },
  { title: 'Landing page', field: 'hero.headline', value: SEED.landing.hero?.headline },
  { title: 'Support page', field: 'heading', value: SEED.support.heading },
  { title: 'Privacy policy', field: 'title', value: SEED.privacy.title },
];

const textOf = (doc: Doc | undefined) => JSON.stringify(doc ?? null);
const publicPage = async (origin: string, path: string) => (await fetch(`${origin}${path}`)).text();

for (const target of STUDIO_TARGETS) {
  test.describe(`the Studio on the ${target.name}`, () => {
    // A few phases of at most PHASE_TIMEOUT_MS each: the slowest test takes about 22 s here, 56 s on one core.
    test.describe.configure({ mode: 'serial', timeout: 150_000 });

    const origin = target.server.url;
    const stamp = Date.now();
    const title = `Policy under review ${stamp}`;
    const sentence = `Reviewed by legal ${stamp}.`;
    const secondTitle = `${title}, second edit`;
    let context: BrowserContext;
    let editor: Page;
    const problems: string[] = [];

    /** The history's entry of the publish before this describe's first: the policy as the tests found it (the seed's text). */
    const publishedBefore = () => studio.historyItems(editor).filter({ hasText: 'Published' }).nth(1);

    /** Publishes the open document, waits until the draft is gone, and tells the site as the target does. */
    const publish = async () => {
      await expect(studio.publish(editor)).toBeEnabled();
      await studio.publish(editor).click();
      await expect.poll(() => target.read('drafts.privacyPolicy')).toBeUndefined();
      await target.published('privacyPolicy');
      await expectStatus(editor, STATUS.published);
    };

    test.beforeAll(async ({ browser }) => {
      context = await studioContext(browser, target.site, problems);
      editor = await context.newPage();
    });
    test.afterEach(() => expect(problems.splice(0)).toEqual([]));
    test.afterAll(async () => {
      await context.close();
      await target.reset();
      // Rendered from the seed again before the next spec, or the next run on this build: a server keeps the
      // pages it renders in its build's folder, and a page refreshed by the reset is rendered at its next view.
      await expect.poll(() => publicPage(origin, '/privacy')).toContain(SEED.privacy.title!);
    });

    test('a deep link opens the privacy policy, its status line says when it was published, and each document opens, the versions read only', async () => {
      await phase('open the Studio on the policy', () =>
        openStudio(editor, origin, 'structure/privacyPolicy', studio.input(editor, 'title')),
      );
      await phase('the status line', () => expectStatus(editor, STATUS.lastPublished));
      await phase('each document from the list', async () => {
        for (const { title: item, field, value } of DOCUMENTS) {
          await studio.item(editor, item).click();
          await expect(studio.input(editor, field)).toHaveValue(value!);
        }
      });
      await phase("the policy's versions, listed under it and read only", async () => {
        await studio.item(editor, 'Privacy policy versions').click();
        await editor
          .getByRole('listbox', { name: 'Privacy policy versions' })
          .getByRole('link', { name: SEED.privacy.lastUpdated! })
          .click();
        await expect(studio.input(editor, 'title')).toHaveValue(SEED.privacy.title!);
        await expect(studio.input(editor, 'title')).not.toBeEditable();
        await studio.item(editor, 'Privacy policy').click();
        await expect(studio.input(editor, 'title')).toBeEditable();
      });
    });

    test('a language added in Site settings, and the landing page translated from its Translations tab, are live at /vi on the first load after the publish', async () => {
      const headline = `Kết nối quanh trường, vẫn ẩn danh ${stamp}`;
      /** Publishes the open document `id` and tells the site as the target does. */
      const publishOpen = async (id: string, type: string) => {
        await expect(studio.publish(editor)).toBeEnabled();
        await studio.publish(editor).click();
        await expect.poll(() => target.read(`drafts.${id}`)).toBeUndefined();
        await target.published(type);
      };
      await phase('Site settings: add Tiếng Việt and publish', async () => {
        // Within the Studio, as an editor goes: a reload would close its listeners mid-way.
        await studio.item(editor, 'Site settings').click();
        await expect(studio.input(editor, 'productName')).toBeEditable();
        await studio.field(editor, 'languages').getByRole('button', { name: 'Add item' }).click();
        const item = editor.getByRole('dialog');
        await item.locator('[data-testid$=".tag"] input').fill('vi');
        // The Studio proposes what Intl knows of the tag: its name in itself, and its direction.
        await expect(item.locator('[data-testid$=".name"] input')).toHaveValue('Tiếng Việt');
        await expect(item.getByRole('radio', { name: 'Left to right' })).toBeChecked();
        await editor.keyboard.press('Escape');
        // Closed and saved before Publish.
        await expect(item).toHaveCount(0);
        await expect
          .poll(async () => ((await target.read('drafts.siteSettings'))?.languages as { tag: string }[] | undefined)?.at(-1)?.tag)
          .toBe('vi');
        await expectStatus(editor, STATUS.edited);
        await publishOpen('siteSettings', 'siteSettings');
      });
      await phase('the landing page: its Translations tab, then Translate into Tiếng Việt', async () => {
        await studio.item(editor, 'Landing page').click();
        await expect(studio.input(editor, 'hero.headline')).toBeEditable();
        await editor.getByRole('tab', { name: 'Translations' }).click();
        await expect(editor.locator('tr[data-state="translated"]', { hasText: 'Español' })).toBeVisible();
        await expect(editor.locator('tr[data-state="missing"]', { hasText: 'Tiếng Việt' })).toBeVisible();
        await editor.getByRole('button', { name: 'Translate into Tiếng Việt' }).click();
        await expect.poll(async () => (await target.read('drafts.landingPage-vi'))?.language).toBe('vi');
      });
      await phase('translate the headline and publish', async () => {
        const input = studio.input(editor, 'hero.headline').last();
        await expect(input).toBeEditable();
        await input.fill(headline);
        await expect.poll(async () => (await target.read('drafts.landingPage-vi'))?.hero).toMatchObject({ headline });
        await publishOpen('landingPage-vi', 'landingPage');
      });
      await phase('/vi, on the first load after the publish', async () => {
        const page = await publicPage(origin, '/vi');
        expect(page).toContain('<html lang="vi" dir="ltr"');
        expect(page).toContain(headline);
      });
      // Where the tests that follow begin: the policy open.
      await studio.item(editor, 'Privacy policy').click();
      await expect(studio.input(editor, 'title')).toBeEditable();
    });

    test('a translation opens in Presentation at its own URL, in draft mode with click-to-edit, and its URL opens the translation', async () => {
      const presentation = await context.newPage();
      const preview = presentation.frameLocator('iframe');
      /** The preview's heading: the draft's words, each followed by its click-to-edit mark (stega, invisible characters). */
      const heading = preview.getByRole('heading', { level: 1 });
      const marked = async () => ((await heading.textContent()) ?? '').length > SEED_ES.landing.hero!.headline!.length;
      await phase('open the Spanish landing page, then Presentation from where it is used', async () => {
        await presentation.goto(`${origin}/studio/intent/edit/id=landingPage-es;type=landingPage/`);
        await expect(studio.input(presentation, 'hero.headline')).toHaveValue(SEED_ES.landing.hero!.headline!, {
          timeout: PHASE_TIMEOUT_MS,
        });
        await presentation.getByText('Used on one page').click();
        await presentation.getByText('/es', { exact: true }).click();
        await expect(heading).toContainText(SEED_ES.landing.hero!.headline!, { timeout: PHASE_TIMEOUT_MS });
        await expect(preview.locator('html')).toHaveAttribute('lang', 'es');
        expect(await marked()).toBe(true);
        const frame = presentation.frames().find((candidate) => candidate !== presentation.mainFrame())!;
        expect(new URL(frame.url()).pathname).toBe('/es');
        await expect(studio.input(presentation, 'hero.headline')).toHaveValue(SEED_ES.landing.hero!.headline!);
      });
      await phase('the preview at /es/support opens the Spanish support page beside it', async () => {
        await presentation.goto(`${origin}/studio/presentation?preview=/es/support`);
        await expect(heading).toContainText(SEED_ES.support.heading!, { timeout: PHASE_TIMEOUT_MS });
        await expect(studio.input(presentation, 'heading')).toHaveValue(SEED_ES.support.heading!);
      });
      await presentation.close();
    });

    // The editor's life of a policy is the Studio on the lake's documents, history and actions APIs, which one lake
    // answers on both builds: the embedded run proves it. The hosted run proves what the hosted build adds to the
    // Studio: the token sign-in and the HTTPS API host, in the test above. Its webhook, draft mode, Presentation's
    // preview and releases are hosted.spec.ts's; its versions, policy-versions.spec.ts's.
    if (!target.wholeLife) return;

    test('a string and a rich-text edit make a draft, which visitors do not see, and the status line says "Edited"', async () => {
      await phase('edit the title and a section', async () => {
        await studio.input(editor, 'title').fill(title);
        await appendToFirstSection(editor, sentence);
      });
      await phase('the draft in the lake', async () => {
        await expect.poll(async () => textOf(await target.read('drafts.privacyPolicy'))).toContain(sentence);
        expect(textOf(await target.read('drafts.privacyPolicy'))).toContain(title);
      });
      await phase('the status line', () => expectStatus(editor, STATUS.edited));
      await phase('the public page', async () => {
        const page = await publicPage(origin, '/privacy');
        expect(page).not.toContain(title);
        expect(page).not.toContain(sentence);
      });
    });

    test('Presentation shows the draft at its first load, with no second one, and follows the next edit in place', async () => {
      const presentation = await context.newPage();
      // A server action that changes a cookie re-renders the whole preview (Next says so in x-action-revalidated):
      // Presentation's first message naming the perspective the preview already shows must not cause one.
      // Each action's answer is read as it comes and awaited before the check; one still being read when the page
      // closes (after the check) has nothing left to say, so its rejection is dropped, not thrown into the test.
      const actions: Promise<string | undefined>[] = [];
      presentation.on('response', (response) => {
        if (!response.request().headers()['next-action']) return;
        actions.push(
          response.headerValue('x-action-revalidated').then(
            (revalidated) => (revalidated && revalidated !== '0' ? response.url() : undefined),
            () => undefined,
          ),
        );
      });
      // The preview's requests in order: its scripts as they are asked for, and each refresh as its answer arrives.
      // The click-to-edit overlays' code is asked for when they start, which must come after the live
      // connection's first refresh: started first, their scan of the page held that refresh behind it.
      const previewRequests: string[] = [];
      const inPreview = (request: Request) => URL.canParse(request.frame().url()) && new URL(request.frame().url()).pathname === '/privacy';
      presentation.on('request', (request) => {
        if (request.resourceType() === 'script' && inPreview(request)) previewRequests.push(new URL(request.url()).pathname);
      });
      // Its answer's head: the body of a refresh streams, and may still be open when the page has shown it.
      presentation.on('response', (response) => {
        if (new URL(response.url()).searchParams.has('_rsc') && inPreview(response.request())) previewRequests.push('refresh');
      });
      const preview = presentation.frameLocator('iframe');
      await phase('open Presentation on /privacy', async () => {
        await presentation.goto(`${origin}/studio/presentation?preview=/privacy`);
        // Presentation's first load is a cold one: the Studio, then the preview in its frame.
        await expect(preview.getByRole('heading', { level: 1 })).toContainText(title, { timeout: PHASE_TIMEOUT_MS });
        await expect(preview.locator('article')).toContainText(sentence);
      });
      const frame = presentation.frames().find((candidate) => new URL(candidate.url()).pathname === '/privacy')!;
      // A mark on the preview's document: a reload would lose it.
      await frame.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      await phase('edit beside it', async () => {
        await studio.input(editor, 'title').fill(secondTitle);
        // Generous: this only checks that it follows; `npm run bench -- studio` measures how fast.
        await expect(preview.getByRole('heading', { level: 1 })).toContainText(secondTitle, { timeout: 15_000 });
      });
      expect(await frame.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      expect((await Promise.all(actions)).filter(Boolean)).toEqual([]);
      await phase('the overlays started after the first refresh had its answer', async () => {
        await expect(preview.locator('sanity-visual-editing')).toBeAttached();
        // On a machine too busy to open the live connection in time the overlays start by their deadline,
        // before it, so that Presentation still connects to them: then the order says nothing.
        if (await frame.evaluate((mark) => performance.getEntriesByName(mark).length > 0, OVERLAYS_DEADLINE_MARK)) {
          test.info().annotations.push({ type: 'note', description: 'the overlays started by their deadline: order not checked' });
          return;
        }
        const scripts = previewRequests.filter((entry) => entry !== 'refresh');
        const bodies = await Promise.all(scripts.map(async (script) => (await fetch(`${origin}${script}`)).text()));
        const overlays = scripts.find((_, index) => bodies[index]!.includes('createElement("sanity-visual-editing")'));
        expect(overlays, "the overlays' script among the preview's").toBeDefined();
        expect(previewRequests.indexOf(overlays!)).toBeGreaterThan(previewRequests.indexOf('refresh'));
        expect(previewRequests.indexOf('refresh')).toBeGreaterThan(-1);
      });
      await presentation.close();
    });

    test('Publish puts the edits on the public page at once, and the status line says "Published"', async () => {
      await phase('publish', publish);
      await phase('the public page', async () => {
        // The first load after the publish: no waiting, no retry.
        const page = await publicPage(origin, '/privacy');
        expect(page).toContain(secondTitle);
        expect(page).toContain(sentence);
      });
    });

    test('History lists the publishes and the edits, and an earlier revision opens as it was', async () => {
      await phase('open the history', () => openHistory(editor));
      const items = studio.historyItems(editor);
      await phase('the entries', async () => {
        await expect(items.first()).toContainText(/Published\s*(just now|\d+ (sec|min)\. ago)/);
        await expect(publishedBefore()).toBeVisible();
        // The edits before the publish are folded under it: unfolded, they are listed too.
        await editor.getByRole('listbox', { name: 'Document revisions' }).getByRole('option').first().getByRole('button').last().click();
        await expect(items.filter({ hasText: 'Edited' }).first()).toBeVisible();
      });
      await phase('the revision before these edits', async () => {
        await publishedBefore().click();
        await expect(studio.input(editor, 'title')).toHaveValue(SEED.privacy.title!);
        await expect(studio.input(editor, 'title')).not.toBeEditable();
        await items.first().click();
        await expect(studio.input(editor, 'title')).toHaveValue(secondTitle);
      });
    });

    test('Review changes shows the draft against the published policy, field by field', async () => {
      await phase('edit the title', async () => {
        await studio.input(editor, 'title').fill(`${secondTitle}, reviewed`);
        await expectStatus(editor, STATUS.edited);
      });
      await phase('review the changes', async () => {
        await editor.getByRole('tab', { name: 'Review changes' }).click();
        await expect(studio.reviewChanges(editor)).toContainText('Title');
        await expect(studio.reviewChanges(editor)).toContainText(`${secondTitle}, reviewed`);
        await expect(studio.reviewChanges(editor)).not.toContainText('Sections');
      });
    });

    test('Revert to revision makes a draft of the policy as it was, which Publish puts back on /privacy', async () => {
      await phase('revert to the revision before these edits', async () => {
        await editor.getByRole('tab', { name: 'History' }).click();
        await revertTo(editor, publishedBefore());
        await expect(studio.input(editor, 'title')).toHaveValue(SEED.privacy.title!);
        await expect.poll(async () => (await target.read('drafts.privacyPolicy'))?.title).toBe(SEED.privacy.title);
      });
      await phase('publish', publish);
      await phase('the public page', async () => expect(await publicPage(origin, '/privacy')).toContain(SEED.privacy.title!));
    });

    test('a changed section warns that "Last updated" is older; an emptied title and six sections each block Publish', async () => {
      await phase('change a section', async () => {
        await appendToFirstSection(editor, sentence);
      });
      await phase('the "Last updated" warning', async () => {
        await studio.field(editor, 'lastUpdated').locator('[data-testid="input-validation-icon-warning"]').hover();
        await expect(editor.getByText(/The policy was edited on \d{4}-\d{2}-\d{2}, after this date/)).toBeVisible();
      });
      await phase('empty the title', async () => {
        await studio.input(editor, 'title').fill('');
        await expect(studio.publish(editor)).toBeDisabled();
        await studio.field(editor, 'title').locator('[data-testid="input-validation-icon-error"]').hover();
        await expect(editor.getByText('Required', { exact: true })).toBeVisible();
        await studio.input(editor, 'title').fill(secondTitle);
      });
      await phase('remove a section', async () => {
        await studio.field(editor, 'sections').locator('[data-testid="array-item-menu-button"]').first().click();
        await editor.getByRole('menuitem', { name: 'Remove' }).click();
        await expect(studio.publish(editor)).toBeDisabled();
        await studio.field(editor, 'sections').locator('[data-testid="input-validation-icon-error"]').first().hover();
        await expect(editor.getByText('The policy has exactly 7 sections.')).toBeVisible();
        await expect.poll(async () => ((await target.read('drafts.privacyPolicy'))?.sections as unknown[] | undefined)?.length).toBe(6);
      });
    });

    test('Discard changes drops the draft: the form shows the published policy, and the status line the discard', async () => {
      await phase('discard', () => discardChanges(editor));
      await phase('the published policy', async () => {
        await expect.poll(() => target.read('drafts.privacyPolicy')).toBeUndefined();
        await expect(studio.input(editor, 'title')).toHaveValue(SEED.privacy.title!);
        expect((await target.read('privacyPolicy'))?.sections).toHaveLength(7);
        await expectStatus(editor, STATUS.discarded);
      });
    });

    test('a deleted policy shows a banner that restores it, and Publish puts it back on /privacy', async () => {
      await phase('delete the policy elsewhere', async () => {
        await target.remove(['privacyPolicy', 'drafts.privacyPolicy']);
        await expect(editor.getByText('This document has been deleted.')).toBeVisible();
      });
      await phase('restore from the banner', async () => {
        await editor.getByRole('button', { name: 'Restore most recent revision' }).click();
        await expect(studio.input(editor, 'title')).toHaveValue(SEED.privacy.title!);
        await expect.poll(async () => (await target.read('drafts.privacyPolicy'))?.title).toBe(SEED.privacy.title);
      });
      await phase('publish', publish);
      await phase('the public page', async () => expect(await publicPage(origin, '/privacy')).toContain(SEED.privacy.title!));
    });

    // The Studio's own calls to Sanity are answered in its page (studio/sanity-services.ts): the Help menu shows
    // what those answers mean. The session's hosts, from the load to here, are checked after each test.
    test('Releases opens from the navbar, and the Help menu says the Studio is up to date and offers no feedback to Sanity', async () => {
      await phase('open Releases', async () => {
        await editor.getByTestId('releases-tool-link').click();
        await expect(editor).toHaveURL(/\/studio\/releases/);
        await expect(editor.getByRole('button', { name: 'New release' }).first()).toBeVisible();
      });
      await phase('the Help menu', async () => {
        await editor.getByTestId('button-resources-menu').click();
        const menu = editor.getByTestId('menu-button-resources');
        await expect(menu.getByTestId('menu-item-studio-version')).toContainText('Up to date');
        await expect(menu).not.toContainText('Send feedback');
        await editor.keyboard.press('Escape');
      });
    });
  });
}
