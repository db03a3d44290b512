/**
 * What every timed step of the Studio measurement shares: the editor's browser context and tabs, the
 * load of /studio until its content list shows, polling, and the runs of one step.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';

import { sleep } from '../../testkit/processes.ts';
import { studio, watchHosts, watchProblems } from '../../testkit/studio.ts';

/** What every step works with: the browser, the site, how many runs of each, and where problems go. */
export type Bench = { browser: Browser; origin: string; runs: number; problems: string[] };

/** The structure tool's list on the embedded default: the site's four singleton documents. */
const CONTENT_LIST = ['Site settings', 'Landing page', 'Support page', 'Privacy policy'];
/** How long any one awaited thing may take before the run fails: far above every target. */
export const TIMEOUT_MS = 30_000;
const POLL_MS = 50;

export const log = (line: string) => process.stderr.write(`[studio] ${line}\n`);
export const elapsed = (started: number) => Math.round(performance.now() - started);

/**
 * A browser context as an editor's, every page in it watched for problems, a host other than the site's
 * among them: nothing is answered for the Studio, whose page answers Sanity's services itself
 * (studio/sanity-services.ts), so the browser's cache works as an editor's does.
 */
export async function editorContext({ browser, origin, problems }: Bench): Promise<BrowserContext> {
  const context = await browser.newContext();
  watchHosts(context, origin, problems);
  context.on('page', (page) => watchProblems(page, problems));
  return context;
}

/** Milliseconds from goto('/studio') until the structure list shows all four documents. */
export async function loadContentList(page: Page, origin: string): Promise<number> {
  const started = performance.now();
  await page.goto(`${origin}/studio`);
  await Promise.all(CONTENT_LIST.map((title) => studio.item(page, title).waitFor({ state: 'visible', timeout: TIMEOUT_MS })));
  return elapsed(started);
}

/** Polls `check` every POLL_MS (from the start of one try to the next) until it holds; throws after TIMEOUT_MS. */
export async function pollUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  for (;;) {
    const tried = performance.now();
    if (await check()) return;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${TIMEOUT_MS} ms`);
    await sleep(Math.max(0, POLL_MS - (performance.now() - tried)));
  }
}

/** `runs` runs of `one`, which returns its time in ms, each logged as it ends (a slow machine shows progress). */
export async function eachRun({ runs }: Bench, what: string, one: (run: number) => Promise<number>): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    times.push(await one(run));
    log(`${what} ${run + 1}/${runs}: ${times.at(-1)} ms`);
  }
  return times;
}
