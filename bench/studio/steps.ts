/**
 * The editor's timed steps in the Studio, in one editor's session (the structure tool open on the
 * privacy policy): edit → preview, first edit → preview as Presentation opens, publish → public page,
 * history → revisions, revert → draft. Each leaves the policy as the next step expects it.
 */
import { expect, type BrowserContext, type Frame, type Page } from '@playwright/test';

import { discardChanges, openHistory, openStudio, studio } from '../../testkit/studio.ts';
import { eachRun, elapsed, log, pollUntil, TIMEOUT_MS, type Bench } from './browser.ts';

/** One editor's session: `editor`, a tab of `context`, on the policy; `stamp` makes this run's titles unique. */
export type Editing = Bench & { context: BrowserContext; editor: Page; stamp: number };

export type PreviewResult = { times: number[]; reloaded: boolean };

const LAKE_DOCS = '/api/lake/v2025-02-19/data/doc/production';
const PRESENTATION = '/studio/presentation?preview=/privacy';

/** The document as the local lake holds it now (the draft's id for the draft), or undefined. */
async function lakeDocument(origin: string, id: string): Promise<{ title?: string } | undefined> {
  const answer = await fetch(`${origin}${LAKE_DOCS}/${id}`);
  if (!answer.ok) throw new Error(`the local lake answered ${answer.status} for ${id}`);
  return ((await answer.json()) as { documents: { title?: string }[] }).documents[0];
}

const draftSaved = (origin: string, title: string) =>
  pollUntil(`the draft titled "${title}" saved`, async () => (await lakeDocument(origin, 'drafts.privacyPolicy'))?.title === title);

/** Until the preview's h1 holds `title`, checked in the frame at every animation frame. */
const previewShows = (frame: Frame, title: string) =>
  frame.waitForFunction((expected) => document.querySelector('h1')?.textContent?.includes(expected), title, {
    polling: 'raf',
    timeout: TIMEOUT_MS,
  });

/** A mark on the preview's document: a reload loses it, so `sameDocument` tells whether it loaded again. */
const markDocument = (frame: Frame) => frame.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
const sameDocument = (frame: Frame) => frame.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

/** The editor's session: a new tab of `context` on the privacy policy in the structure tool. */
export async function openPolicy(bench: Bench, context: BrowserContext): Promise<Editing> {
  const editor = await context.newPage();
  await openStudio(editor, bench.origin, 'structure/privacyPolicy', studio.input(editor, 'title'));
  return { ...bench, context, editor, stamp: Date.now() };
}

/**
 * Presentation on /privacy in one tab, the structure tool on the policy in another, as an editor works
 * (tests/e2e/studio.spec.ts does the same). One untimed edit first: from then on the preview's stream is
 * connected. Each run is timed from fill() until the frame's h1 shows the new title; the draft is then
 * left to save before the next run, so no run starts behind another's write.
 */
export async function editToPreview(session: Editing): Promise<PreviewResult> {
  const { context, editor, origin, stamp } = session;
  const presentation = await context.newPage();
  await presentation.goto(`${origin}${PRESENTATION}`);
  await expect(presentation.frameLocator('iframe').getByRole('heading', { level: 1 })).toBeVisible({ timeout: TIMEOUT_MS });
  const frame = presentation.frames().find((candidate) => new URL(candidate.url()).pathname === '/privacy');
  if (!frame) throw new Error('Presentation shows no frame on /privacy');
  const title = studio.input(editor, 'title');
  await title.fill(`Preview warm-up ${stamp}`);
  await previewShows(frame, `Preview warm-up ${stamp}`);
  await markDocument(frame);
  const times = await eachRun(session, 'edit → preview', async (run) => {
    const text = `Preview edit ${run} ${stamp}`;
    const started = performance.now();
    await title.fill(text);
    await previewShows(frame, text);
    const time = elapsed(started);
    await draftSaved(origin, text);
    return time;
  });
  const reloaded = !(await sameDocument(frame));
  await presentation.close();
  return { times, reloaded };
}

/** The preview's frame on /privacy, once Presentation has one. */
async function firstFrame(presentation: Page): Promise<Frame> {
  let frame: Frame | undefined;
  await pollUntil('a preview frame on /privacy', async () => {
    frame = presentation.frames().find((candidate) => URL.canParse(candidate.url()) && new URL(candidate.url()).pathname === '/privacy');
    return frame !== undefined;
  });
  return frame!;
}

/**
 * Each run opens Presentation in a new tab and, as soon as its preview shows the page, types a title in
 * the structure tool: timed from fill() until the preview shows it. An edit typed during a second load of
 * the preview used to wait for it; a mark set on the preview's document at its first paint tells whether
 * it loaded again.
 */
export async function firstEditToPreview(session: Editing): Promise<PreviewResult> {
  const { context, editor, origin, stamp } = session;
  let reloaded = false;
  const times = await eachRun(session, 'first edit → preview', async (run) => {
    const presentation = await context.newPage();
    await presentation.goto(`${origin}${PRESENTATION}`);
    const frame = await firstFrame(presentation);
    await frame.locator('h1').waitFor({ state: 'visible', timeout: TIMEOUT_MS });
    await markDocument(frame);
    const text = `First edit ${run} ${stamp}`;
    const started = performance.now();
    await studio.input(editor, 'title').fill(text);
    await previewShows(frame, text);
    const time = elapsed(started);
    if (!(await sameDocument(frame))) {
      reloaded = true;
      log(`first edit → preview ${run + 1}: the preview loaded again`);
    }
    await draftSaved(origin, text);
    await presentation.close();
    return time;
  });
  return { times, reloaded };
}

/**
 * Each run: a new title typed and its draft saved in the lake (untimed), then timed from the click on
 * Publish until a plain GET /privacy from Node (no cache of any kind) holds the title, polled every
 * POLL_MS; then until the lake has dropped the draft, so the next run starts from a published policy.
 */
export const publishToPage = (session: Editing): Promise<number[]> =>
  eachRun(session, 'publish → public page', async (run) => {
    const { editor, origin, stamp } = session;
    const text = `Published edit ${run} ${stamp}`;
    await studio.input(editor, 'title').fill(text);
    await draftSaved(origin, text);
    await expect(studio.publish(editor)).toBeEnabled({ timeout: TIMEOUT_MS });
    const started = performance.now();
    await studio.publish(editor).click();
    await pollUntil(`"${text}" on the public /privacy`, async () => (await (await fetch(`${origin}/privacy`)).text()).includes(text));
    const time = elapsed(started);
    await pollUntil('the draft gone after the publish', async () => (await lakeDocument(origin, 'drafts.privacyPolicy')) === undefined);
    return time;
  });

/**
 * `one`, on the policy opened afresh in a new tab of the editor's context (closed after): a goto on a
 * Studio tab makes its presence client send on the socket the unloading page has closed, which Chromium
 * logs as a console error ("WebSocket is already in CLOSING or CLOSED state") that voided whole runs.
 */
async function inFreshTab(session: Editing, one: (editor: Page) => Promise<number>): Promise<number> {
  const editor = await session.context.newPage();
  try {
    await openStudio(editor, session.origin, 'structure/privacyPolicy', studio.input(editor, 'title'));
    return await one(editor);
  } finally {
    await editor.close();
  }
}

/** Each run opens the policy afresh (untimed), then times the History action until the panel lists two revisions or more. */
export const historyPanel = (session: Editing): Promise<number[]> =>
  eachRun(session, 'history → revisions', () =>
    inFreshTab(session, async (editor) => {
      const started = performance.now();
      await openHistory(editor);
      await studio.historyItems(editor).nth(1).waitFor({ state: 'visible', timeout: TIMEOUT_MS });
      return elapsed(started);
    }),
  );

/**
 * Each run opens the policy and its history afresh and opens the seed's revision (untimed), then times
 * "Revert to revision", confirmed, until the form is the draft it made: editable, with the seed's title.
 * The draft is then discarded, so each run reverts the same published policy.
 */
export const revertToDraft = (session: Editing, seedTitle: string): Promise<number[]> =>
  eachRun(session, 'revert → draft', () =>
    // Afresh each run: the panel of a page open for long lists what its last listener-triggered reload
    // asked for (the Studio asks for 10 events then), which after many publishes no longer reaches the seed.
    inFreshTab(session, async (editor) => {
      const title = studio.input(editor, 'title');
      const items = studio.historyItems(editor);
      await openHistory(editor);
      // The seed's revision is the oldest: the last entry once the panel lists more than the newest.
      await items.nth(1).waitFor({ state: 'visible', timeout: TIMEOUT_MS });
      await items.last().click();
      await expect(title).toHaveValue(seedTitle, { timeout: TIMEOUT_MS });
      const started = performance.now();
      await editor.getByTestId('action-reverttorevision').click();
      await editor.getByTestId('confirm-popover-confirm-button').click();
      await expect(title).toBeEditable({ timeout: TIMEOUT_MS });
      await expect(title).toHaveValue(seedTitle, { timeout: TIMEOUT_MS });
      const time = elapsed(started);
      await discardChanges(editor);
      await expect(title).not.toHaveValue(seedTitle, { timeout: TIMEOUT_MS });
      return time;
    }),
  );
