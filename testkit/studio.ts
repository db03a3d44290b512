/**
 * Driving the real Sanity Studio in Chromium: for the Studio's browser tests (tests/e2e/studio.spec.ts)
 * and the measuring script (bench/studio/). Only what the Studio itself renders is used to
 * find things: its test ids (listed in ../shared/STUDIO-API.md) and its visible texts.
 */
import { createRequire } from 'node:module';

import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';

import { STREAM_HOST } from '@school-site/content-lake';
import { versionCheckAnswer } from '../studio/sanity-services.ts';

import { followProcessClock } from './browser-clock.ts';

const SANITY_VERSION = (createRequire(import.meta.url)('sanity/package.json') as { version: string }).version;

/**
 * With a project, the Studio calls Sanity's own services beside its API: a feedback probe
 * (api.sanity.io/…/intake), a check for newer versions (sanity-cdn.com) and the dashboard's bridge script
 * (core.sanity-cdn.com). This machine has no internet, so the hosted build's tests answer for those
 * services, as they answer when online: otherwise each failed call is a console error the tests would count
 * against the site. Each answer is for every URL that starts with its prefix. The embedded default's Studio
 * asks none of them (studio/sanity-services.ts): its tests answer nothing and watch its hosts instead.
 */
const SANITY_SERVICES = [
  { prefix: 'https://api.sanity.io/', contentType: 'application/json', body: '{}' },
  { prefix: 'https://sanity-cdn.com/', contentType: 'application/json', body: JSON.stringify(versionCheckAnswer(SANITY_VERSION)) },
  { prefix: 'https://core.sanity-cdn.com/', contentType: 'text/javascript', body: '' },
] as const;

/** SANITY_SERVICES answered in every page of `context`, through Playwright's routing. */
async function answerForSanityServices(context: BrowserContext): Promise<void> {
  for (const { prefix, contentType, body } of SANITY_SERVICES) {
    await context.route(`${prefix}**`, (route) => route.fulfill({ contentType, body }));
  }
}

/**
 * Every request and WebSocket of `context`'s pages (their frames and workers too) to a host other than the
 * site at `origin`, into `problems`. The embedded default's Studio asks only the site: its pages and
 * /api/lake, the lake's streams on names of their own under localhost on the site's port
 * (packages/content-lake/src/access.ts), and the presence socket. Nothing is routed, so a call to Sanity's services
 * is seen as the browser makes it. (One the Studio's CSP refuses never becomes a request: its console error
 * is the problem then, as watchProblems reports it.)
 */
export function watchHosts(context: BrowserContext, origin: string, problems: string[]): string[] {
  const site = new URL(origin);
  const foreign = (address: string) => {
    const url = URL.parse(address);
    if (!url || !['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return false;
    return url.port !== site.port || (url.hostname !== site.hostname && !STREAM_HOST.test(url.hostname));
  };
  context.on('request', (request) => foreign(request.url()) && problems.push(`foreign host: ${request.method()} ${request.url()}`));
  context.on('page', (page) =>
    page.on('websocket', (socket) => foreign(socket.url()) && problems.push(`foreign host: WebSocket ${socket.url()}`)),
  );
  return problems;
}

/** Where a Studio runs: the embedded default's, at the site's origin, or a project's, signed in as `signIn` does. */
export type StudioSite = { local: true; origin: string } | { local: false; signIn(context: BrowserContext): Promise<void> };

/**
 * A new browser context for the Studio of `site`, every page in it watched into `problems`: what watchProblems
 * sees and, on the embedded default, every host it asks (watchHosts). A project's Studio gets Sanity's services
 * answered (answerForSanityServices) and is signed in.
 */
export async function studioContext(browser: Browser, site: StudioSite, problems: string[]): Promise<BrowserContext> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  await followProcessClock(context);
  if (site.local) watchHosts(context, site.origin, problems);
  else {
    await answerForSanityServices(context);
    await site.signIn(context);
  }
  context.on('page', (page) => watchProblems(page, problems));
  return context;
}

/** A hosted project's Studio signed in with a token, as Sanity's login leaves it (STUDIO-API.md, "Signing in"). */
export async function signInWithToken(context: BrowserContext, projectId: string, token: string): Promise<void> {
  // Every frame runs init scripts; sandboxed and opaque ones (about:blank, data:) may not touch storage.
  await context.addInitScript(
    ([key, value]) => {
      if (window.origin !== 'null' && location.protocol.startsWith('http')) localStorage.setItem(key!, value!);
    },
    [`__studio_auth_token_${projectId}`, JSON.stringify({ token })],
  );
}

/** Every problem an editor would meet on `page`, into `problems`: console errors, uncaught exceptions, answers ≥ 400 (frames included). */
export function watchProblems(page: Page, problems: string[] = []): string[] {
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on(
    'response',
    (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.request().method()} ${response.url()}`),
  );
  return problems;
}

/** The Studio's own handles on what it renders. */
export const studio = {
  item: (page: Page, title: string) => page.locator(`[data-testid="pane-item-${title}"]`),
  field: (page: Page, path: string) => page.locator(`[data-testid="field-${path}"]`),
  input: (page: Page, path: string) => page.locator(`[data-testid="field-${path}"] input`),
  publish: (page: Page) => page.locator('[data-testid="action-publish"]'),
  status: (page: Page) => page.locator('[data-testid="pane-footer-document-status"]'),
  /** The rich-text editor of an open Portable Text field. */
  richText: (page: Page) => page.locator('[data-testid="pt-editor"] [contenteditable="true"]'),
  /** The entries of the open history panel, newest first. */
  historyItems: (page: Page) => page.getByTestId('timeline-item-button'),
  /** The open "Review changes" tab: the changes from one revision to another, field by field. */
  reviewChanges: (page: Page) => page.getByTestId('review-changes-pane').filter({ hasText: 'From' }),
};

/** What the document's status line says, as Sanity's own e2e tests read it (e2e/helpers/documentStatusAssertions.ts). */
export const STATUS = {
  // Within a month, relative as Intl words it (numeric: 'auto'): "3 days ago", "yesterday", "last week"; from a
  // month on, the date: "Nov 1" in the same year, "Nov 22, 2026" before it (useRelativeTime, minimal).
  lastPublished: /Last published (.* ago|yesterday|last (week|month|year)|[A-Z][a-z]{2} \d{1,2}(, \d{4})?$)/i,
  published: /Published (just now|\d+ sec\. ago)/i,
  edited: /Edited (just now|\d+ sec\. ago)/i,
  discarded: /Discarded draft (just now|\d+ sec\. ago)/i,
} as const;

/**
 * Until the status line says `what`. After an edit it first shows "Saving…" then "Saved" for about four
 * seconds in all, so it waits as Sanity's own tests do, up to 30 s.
 */
export const expectStatus = (page: Page, what: RegExp) => expect(studio.status(page)).toContainText(what, { timeout: 30_000 });

/** How long one phase of a Studio test may take: a cold load of the Studio, or one round of edits, at most. */
export const PHASE_TIMEOUT_MS = 60_000;

/**
 * One phase of a Studio test, as a step of its report: a failure, a timeout included, names the phase it
 * happened in (a test's own timeout names no step). Each phase has its own limit, within the test's.
 */
export async function phase<T>(title: string, body: () => Promise<T>, timeout = PHASE_TIMEOUT_MS): Promise<T> {
  try {
    return await test.step(title, body, { timeout });
  } catch (error) {
    if (error instanceof Error && !error.message.startsWith('[')) error.message = `[${title}] ${error.message}`;
    throw error;
  }
}

/** Opens the document's history panel, from its menu as an editor would. */
export async function openHistory(page: Page): Promise<void> {
  await page.getByTestId('document-pane').getByTestId('pane-context-menu-button').click();
  await page.getByTestId('action-history').click();
  await expect(page.getByRole('tab', { name: 'History' })).toBeVisible();
  await page.getByRole('tab', { name: 'History' }).click();
}

/** Reverts the open document to the revision of history entry `item`, confirmed. */
export async function revertTo(page: Page, item: Locator): Promise<void> {
  await item.click();
  await page.getByTestId('action-reverttorevision').click();
  await page.getByTestId('confirm-popover-confirm-button').click();
}

/** Opens the Studio on `path` (e.g. structure/privacyPolicy) and waits until the form can be typed in. */
export async function openStudio(page: Page, origin: string, path: string, ready: Locator): Promise<void> {
  await page.goto(`${origin}/studio/${path}`);
  await expect(ready).toBeEditable({ timeout: PHASE_TIMEOUT_MS });
}

/** Discard changes, from the document's action menu, confirmed. */
export async function discardChanges(page: Page): Promise<void> {
  await page.locator('[data-testid="action-menu-button"]').click();
  await page.locator('[data-testid="action-Discardchanges"]').click();
  await page.locator('[data-testid="confirm-button"]').click();
}

/** Types `text` at the end of the policy's first section, in its rich-text editor, and closes it. */
export async function appendToFirstSection(editor: Page, text: string): Promise<void> {
  await studio.field(editor, 'sections').locator('[data-testid="default-preview"]').first().click();
  await studio.richText(editor).click();
  await editor.keyboard.press('Control+End');
  await editor.keyboard.type(` ${text}`);
  await editor.keyboard.press('Escape');
}
