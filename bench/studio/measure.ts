#!/usr/bin/env node
/**
 * npm run measure:studio — the editors' path in the real Sanity Studio at /studio on the embedded default
 * (no Sanity project: the Studio edits the site's dataset through the local lake in the site's own
 * server), on the current production build (.next, or NEXT_DIST_DIR), in Debian's Chromium:
 *
 *   Studio load, cold     a new browser context (empty HTTP cache) from goto('/studio') until the
 *                         structure list shows its four documents
 *   Studio load, warm     the same in one context whose cache holds the Studio's JavaScript
 *   edit → preview        a title typed in the structure tool (fill), until Presentation's preview, open
 *                         on /privacy in a second tab, shows it (without a reload)
 *   publish → public page a click on Publish (the draft already saved) until a fresh GET /privacy from
 *                         Node shows the title
 *   first edit → preview  Presentation opened in a new tab; as soon as its preview shows the page, a title
 *                         typed in the structure tool, until the preview shows it (the first load is final)
 *   history → revisions   the policy opened afresh, then a click on History in its menu until the panel
 *                         lists its revisions
 *   revert → draft        a click on "Revert to revision" (the seed's, confirmed) until the form shows the
 *                         draft it made
 *   Studio JavaScript     what one cold load of /studio downloads: files, transfer and decoded bytes
 *
 * STUDIO_RUNS=20 of each; median and worst. Every page is watched for problems (console errors, uncaught
 * exceptions, answers >= 400): any problem makes the numbers meaningless, and the script exits 1.
 * `--strict` also exits 1 when a target is missed or the preview reloaded. Writes bench/studio-report.json.
 *
 * The server is the build's standalone server from a private copy in bench/.tmp, with its own copy of
 * the seed and its own store: a publish makes the server rewrite its prerendered /privacy, which must
 * not reach the real build (testkit/standalone.ts, copyStandalone). Sanity's own services are answered
 * as the tests answer them, but not through Playwright's routing, which would turn the browser's cache
 * off and slow every request (scripts/lib/sanity-services.ts).
 */
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { chromium, expect, type Browser, type BrowserContext, type Frame, type Page } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../testkit/browser.ts';
import { seedCopy } from '../testkit/dataset.ts';
import { SEED } from '../testkit/seed-copy.ts';
import { APP_ROOT } from '../testkit/paths.ts';
import { freePort, sleep, stopOnSignals, waitForHttp } from '../testkit/processes.ts';
import { buildPaths, buildState, copyStandalone, startApp } from '../testkit/standalone.ts';
import { discardChanges, openHistory, openStudio, studio, watchProblems } from '../testkit/studio.ts';
import { envInt, median, table, verdict } from './lib/report.ts';
import { answerKeepingCache } from './lib/sanity-services.ts';

const RUNS = envInt('STUDIO_RUNS', 20);
const TARGET_WARM_MS = 5000;
const TARGET_PREVIEW_MS = 2000;
const TARGET_PUBLISH_MS = 2000;
const TARGET_HISTORY_MS = 2000;
const TARGET_REVERT_MS = 2000;
/** The structure tool's list on the embedded default: the site's four singleton documents. */
const CONTENT_LIST = ['Site settings', 'Landing page', 'Support page', 'Privacy policy'];
const LAKE_DOCS = '/api/lake/v2025-02-19/data/doc/production';
/** How long any one awaited thing may take before the run fails: far above every target. */
const TIMEOUT_MS = 30_000;
const POLL_MS = 50;
const REPORT = path.join(APP_ROOT, 'bench', 'studio-report.json');
const CHROMIUM = 'Chromium via Playwright';

const log = (line: string) => process.stderr.write(`[studio] ${line}\n`);
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const elapsed = (started: number) => Math.round(performance.now() - started);

type Site = { origin: string; stop(): Promise<unknown> };

/** The build's standalone server, from a private copy in `dir`, on a seed copy and a store of its own. */
async function startSite(dir: string): Promise<Site> {
  const paths = buildPaths(process.env.NEXT_DIST_DIR || undefined);
  const { state, reason } = buildState(paths);
  if (state === 'missing') {
    console.error(`${reason}: run npm run build first (measure:studio measures a build, it does not make one)`);
    process.exit(1);
  }
  if (state === 'stale') log(`warning: ${reason}; measuring the existing build`);
  const copy = await copyStandalone(paths, path.join(dir, 'standalone'));
  // Next leaves the static files (the Studio's JavaScript) out of the standalone folder; the server
  // serves them from its copy. Uncompressed: no nginx here, the server compresses as it answers.
  await cp(paths.staticSource, copy.staticDir, { recursive: true });
  const port = await freePort();
  const child = startApp({
    paths: copy,
    port,
    env: {
      ...process.env,
      DATA_DIR: path.join(dir, 'data'),
      CONTENT_FILE: await seedCopy(dir),
      // One editor and one poller: no quota should ever answer 429 here.
      RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_SITE_MAX: '1000000000',
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/`, { child, timeoutMs: 120_000 });
  return { origin, stop: () => child.stop() };
}

/** A browser context as an editor's, every page in it watched for problems. */
async function editorContext(browser: Browser, problems: string[]): Promise<BrowserContext> {
  const context = await browser.newContext();
  context.on('page', (page) => watchProblems(page, problems));
  return context;
}

/** A new tab, Sanity's own services answered for in it (this machine is offline): see lib/sanity-services.ts. */
async function editorPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await answerKeepingCache(page);
  return page;
}

/** Milliseconds from goto('/studio') until the structure list shows all four documents. */
async function loadContentList(page: Page, origin: string): Promise<number> {
  const started = performance.now();
  await page.goto(`${origin}/studio`);
  await Promise.all(CONTENT_LIST.map((title) => studio.item(page, title).waitFor({ state: 'visible', timeout: TIMEOUT_MS })));
  return elapsed(started);
}

/** Each run in a new context: nothing cached, as an editor's first visit (the server itself is warm). */
async function coldLoads(browser: Browser, origin: string, problems: string[]): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await editorContext(browser, problems);
    times.push(await loadContentList(await editorPage(context), origin));
    await context.close();
    log(`cold load ${run + 1}/${RUNS}: ${times.at(-1)} ms`);
  }
  return times;
}

/**
 * What `page` receives of JavaScript over the network from now on, headers included, from the DevTools
 * protocol: a script the HTTP cache answers receives nothing. The returned function reads and resets it.
 */
async function scriptBytesReceived(page: Page): Promise<() => number> {
  const cdp = await page.context().newCDPSession(page);
  const scripts = new Set<string>();
  let bytes = 0;
  cdp.on('Network.responseReceived', (event) => event.type === 'Script' && scripts.add(event.requestId));
  cdp.on('Network.loadingFinished', (event) => void (scripts.has(event.requestId) && (bytes += event.encodedDataLength)));
  await cdp.send('Network.enable');
  return () => {
    const taken = bytes;
    bytes = 0;
    return taken;
  };
}

type WarmLoads = { times: number[]; scriptBytes: number[] };

/**
 * One context, loaded once untimed to fill its cache; each run then leaves for about:blank and opens
 * /studio again: a new document whose JavaScript comes from the cache (the Next chunks are immutable).
 * What each run still received over the network is kept, to show the cache was warm.
 */
async function warmLoads(browser: Browser, origin: string, problems: string[]): Promise<WarmLoads> {
  const context = await editorContext(browser, problems);
  const page = await editorPage(context);
  const received = await scriptBytesReceived(page);
  await loadContentList(page, origin);
  const warm: WarmLoads = { times: [], scriptBytes: [] };
  for (let run = 0; run < RUNS; run += 1) {
    await page.goto('about:blank');
    received();
    warm.times.push(await loadContentList(page, origin));
    warm.scriptBytes.push(received());
    log(`warm load ${run + 1}/${RUNS}: ${warm.times.at(-1)} ms, ${warm.scriptBytes.at(-1)} bytes of JavaScript over the network`);
  }
  await context.close();
  return warm;
}

type JsBytes = { files: number; transferBytes: number; decodedBytes: number };

/**
 * The JavaScript one cold load of /studio takes from the site: every script answer until the list is
 * shown and no further script has arrived for 2 s (the Studio loads some chunks after its first paint).
 * Transfer is the encoded body as sent (Playwright's responseBodySize); decoded is the body itself.
 * Untimed: reading each body back from the browser would slow the load it counts.
 */
async function studioJavaScript(browser: Browser, origin: string, problems: string[]): Promise<JsBytes> {
  const context = await editorContext(browser, problems);
  const page = await editorPage(context);
  const counted: Promise<{ transfer: number; decoded: number }>[] = [];
  let lastScript = performance.now();
  page.on('response', (response) => {
    const isScript = response.request().resourceType() === 'script' || /javascript/.test(response.headers()['content-type'] ?? '');
    if (!isScript || !response.url().startsWith(origin)) return;
    lastScript = performance.now();
    counted.push(
      Promise.all([response.request().sizes(), response.body()]).then(([sizes, body]) => ({
        transfer: sizes.responseBodySize,
        decoded: body.length,
      })),
    );
  });
  await loadContentList(page, origin);
  while (performance.now() - lastScript < 2000) await sleep(200);
  const scripts = await Promise.all(counted);
  await context.close();
  return {
    files: scripts.length,
    transferBytes: scripts.reduce((sum, script) => sum + script.transfer, 0),
    decodedBytes: scripts.reduce((sum, script) => sum + script.decoded, 0),
  };
}

/** The document as the local lake holds it now (the draft's id for the draft), or undefined. */
async function lakeDocument(origin: string, id: string): Promise<{ title?: string } | undefined> {
  const answer = await fetch(`${origin}${LAKE_DOCS}/${id}`);
  if (!answer.ok) throw new Error(`the local lake answered ${answer.status} for ${id}`);
  return ((await answer.json()) as { documents: { title?: string }[] }).documents[0];
}

/** Polls `check` every POLL_MS (from the start of one try to the next) until it holds; throws after TIMEOUT_MS. */
async function pollUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  for (;;) {
    const tried = performance.now();
    if (await check()) return;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${TIMEOUT_MS} ms`);
    await sleep(Math.max(0, POLL_MS - (performance.now() - tried)));
  }
}

const draftSaved = (origin: string, title: string) =>
  pollUntil(`the draft titled "${title}" saved`, async () => (await lakeDocument(origin, 'drafts.privacyPolicy'))?.title === title);

/** Until the preview's h1 holds `title`, checked in the frame at every animation frame. */
const previewShows = (frame: Frame, title: string) =>
  frame.waitForFunction((expected) => document.querySelector('h1')?.textContent?.includes(expected), title, {
    polling: 'raf',
    timeout: TIMEOUT_MS,
  });

type PreviewResult = { times: number[]; reloaded: boolean };

/**
 * Presentation on /privacy in one tab, the structure tool on the policy in another, as an editor works
 * (tests/e2e/studio.spec.ts does the same). One untimed edit first: from then on the preview's stream is
 * connected. Each run is timed from fill() until the frame's h1 shows the new title; the draft is then
 * left to save before the next run, so no run starts behind another's write.
 */
async function editToPreview(context: BrowserContext, editor: Page, origin: string, stamp: number): Promise<PreviewResult> {
  const presentation = await editorPage(context);
  await presentation.goto(`${origin}/studio/presentation?preview=/privacy`);
  await expect(presentation.frameLocator('iframe').getByRole('heading', { level: 1 })).toBeVisible({ timeout: TIMEOUT_MS });
  const frame = presentation.frames().find((candidate) => new URL(candidate.url()).pathname === '/privacy');
  if (!frame) throw new Error('Presentation shows no frame on /privacy');
  const title = studio.input(editor, 'title');
  await title.fill(`Preview warm-up ${stamp}`);
  await previewShows(frame, `Preview warm-up ${stamp}`);
  // A mark on the preview's document: a reload would lose it.
  await frame.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const text = `Preview edit ${run} ${stamp}`;
    const started = performance.now();
    await title.fill(text);
    await previewShows(frame, text);
    times.push(elapsed(started));
    log(`edit → preview ${run + 1}/${RUNS}: ${times.at(-1)} ms`);
    await draftSaved(origin, text);
  }
  const reloaded = !(await frame.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument));
  await presentation.close();
  return { times, reloaded };
}

/**
 * Each run: a new title typed and its draft saved in the lake (untimed), then timed from the click on
 * Publish until a plain GET /privacy from Node (no cache of any kind) holds the title, polled every
 * POLL_MS; then until the lake has dropped the draft, so the next run starts from a published policy.
 */
async function publishToPage(editor: Page, origin: string, stamp: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const text = `Published edit ${run} ${stamp}`;
    await studio.input(editor, 'title').fill(text);
    await draftSaved(origin, text);
    await expect(studio.publish(editor)).toBeEnabled({ timeout: TIMEOUT_MS });
    const started = performance.now();
    await studio.publish(editor).click();
    await pollUntil(`"${text}" on the public /privacy`, async () => (await (await fetch(`${origin}/privacy`)).text()).includes(text));
    times.push(elapsed(started));
    log(`publish → public page ${run + 1}/${RUNS}: ${times.at(-1)} ms`);
    await pollUntil('the draft gone after the publish', async () => (await lakeDocument(origin, 'drafts.privacyPolicy')) === undefined);
  }
  return times;
}

/**
 * Each run opens Presentation in a new tab and, as soon as its preview shows the page, types a title in
 * the structure tool: timed from fill() until the preview shows it. An edit typed during a second load of
 * the preview used to wait for it; a mark set on the preview's document at its first paint tells whether
 * it loaded again.
 */
async function firstEditToPreview(context: BrowserContext, editor: Page, origin: string, stamp: number): Promise<PreviewResult> {
  const times: number[] = [];
  let reloaded = false;
  for (let run = 0; run < RUNS; run += 1) {
    const presentation = await editorPage(context);
    await presentation.goto(`${origin}/studio/presentation?preview=/privacy`);
    const frame = await firstFrame(presentation);
    await frame.locator('h1').waitFor({ state: 'visible', timeout: TIMEOUT_MS });
    await frame.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const text = `First edit ${run} ${stamp}`;
    const started = performance.now();
    await studio.input(editor, 'title').fill(text);
    await previewShows(frame, text);
    times.push(elapsed(started));
    const same = await frame.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
    reloaded ||= !same;
    log(`first edit → preview ${run + 1}/${RUNS}: ${times.at(-1)} ms${same ? '' : ', the preview loaded again'}`);
    await draftSaved(origin, text);
    await presentation.close();
  }
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

/** Each run opens the policy afresh (untimed), then times the History action until the panel lists two revisions or more. */
async function historyPanel(editor: Page, origin: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    await openStudio(editor, origin, 'structure/privacyPolicy', studio.input(editor, 'title'));
    const started = performance.now();
    await openHistory(editor);
    await studio.historyItems(editor).nth(1).waitFor({ state: 'visible', timeout: TIMEOUT_MS });
    times.push(elapsed(started));
    log(`history → revisions ${run + 1}/${RUNS}: ${times.at(-1)} ms`);
  }
  return times;
}

/**
 * With the history open, each run opens the seed's revision (untimed), then times "Revert to revision",
 * confirmed, until the form is the draft it made: editable, with the seed's title. The draft is then
 * discarded, so each run reverts the same published policy.
 */
async function revertToDraft(editor: Page, seedTitle: string): Promise<number[]> {
  const times: number[] = [];
  const title = studio.input(editor, 'title');
  for (let run = 0; run < RUNS; run += 1) {
    await studio.historyItems(editor).last().click();
    await expect(title).toHaveValue(seedTitle, { timeout: TIMEOUT_MS });
    const started = performance.now();
    await editor.getByTestId('action-reverttorevision').click();
    await editor.getByTestId('confirm-popover-confirm-button').click();
    await expect(title).toBeEditable({ timeout: TIMEOUT_MS });
    await expect(title).toHaveValue(seedTitle, { timeout: TIMEOUT_MS });
    times.push(elapsed(started));
    log(`revert → draft ${run + 1}/${RUNS}: ${times.at(-1)} ms`);
    await discardChanges(editor);
    await expect(title).not.toHaveValue(seedTitle, { timeout: TIMEOUT_MS });
  }
  return times;
}

type Row = { measure: string; client: string; times: number[]; targetMs?: number };
type Results = { rows: Row[]; js: JsBytes; warmScriptBytes: number[]; previewReloaded: boolean };

/** Every measure, in the order the table lists them, in one browser. */
async function measure(browser: Browser, origin: string, problems: string[]): Promise<Results> {
  // Also the server's first Studio load after its start: the timed loads below find it warm.
  log('the Studio JavaScript of a cold load');
  const js = await studioJavaScript(browser, origin, problems);
  const cold = await coldLoads(browser, origin, problems);
  const warm = await warmLoads(browser, origin, problems);
  const context = await editorContext(browser, problems);
  const editor = await editorPage(context);
  await openStudio(editor, origin, 'structure/privacyPolicy', studio.input(editor, 'title'));
  const stamp = Date.now();
  const preview = await editToPreview(context, editor, origin, stamp);
  const first = await firstEditToPreview(context, editor, origin, stamp);
  const publish = await publishToPage(editor, origin, stamp);
  const history = await historyPanel(editor, origin);
  const revert = await revertToDraft(editor, SEED.privacy.title!);
  await context.close();
  return {
    js,
    warmScriptBytes: warm.scriptBytes,
    previewReloaded: preview.reloaded || first.reloaded,
    rows: [
      { measure: 'Studio load → content list, cold', client: `${CHROMIUM}, a new context each run`, times: cold },
      {
        measure: 'Studio load → content list, warm',
        client: `${CHROMIUM}, one context, its cache warm`,
        times: warm.times,
        targetMs: TARGET_WARM_MS,
      },
      { measure: 'edit → preview (Presentation)', client: `${CHROMIUM}, two tabs`, times: preview.times, targetMs: TARGET_PREVIEW_MS },
      {
        measure: 'first edit → preview, as Presentation opens',
        client: `${CHROMIUM}, two tabs`,
        times: first.times,
        targetMs: TARGET_PREVIEW_MS,
      },
      { measure: 'publish → public page', client: `${CHROMIUM} publishes, Node fetch reads`, times: publish, targetMs: TARGET_PUBLISH_MS },
      {
        measure: 'history opened → revisions listed',
        client: `${CHROMIUM}, the policy opened afresh`,
        times: history,
        targetMs: TARGET_HISTORY_MS,
      },
      { measure: 'Revert to revision → draft in the form', client: `${CHROMIUM}, one tab`, times: revert, targetMs: TARGET_REVERT_MS },
    ],
  };
}

const kib = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} KiB`;

/** One line per measure: median and worst, and the target with ok/MISSED where there is one. */
function tableOf(rows: Row[]): { text: string; missed: string[] } {
  const missed: string[] = [];
  const lines = rows.map(({ measure: name, client, times, targetMs }) => {
    const worst = Math.max(...times);
    const met = targetMs === undefined ? undefined : worst <= targetMs;
    if (met === false) missed.push(name);
    const target = targetMs === undefined ? '' : `worst <= ${targetMs} ms`;
    return [name, client, `${Math.round(median(times)!)} ms`, `${worst} ms`, target, met === undefined ? '' : verdict(met)];
  });
  return { text: table([['measure', 'client', 'median', 'worst', 'target', ''], ...lines]), missed };
}

type Report = Results & {
  generatedAt: string;
  machine: string;
  runs: number;
  loadAverage: { start: string; end: string };
  problems: string[];
};

/** The table, and beside it what the rows rest on: the machine's load, the Studio's JavaScript, the cache, the problems. */
function print(report: Report, measures: string): void {
  const { js, warmScriptBytes, previewReloaded, problems } = report;
  const lines = [
    `measure:studio  ${report.generatedAt}  embedded default (local lake), the build's standalone server, ${report.machine}`,
    `load average (1, 5, 15 min): ${report.loadAverage.start} at the start, ${report.loadAverage.end} at the end`,
    `${report.runs} runs of each`,
    '',
    measures,
    '',
    `Studio JavaScript, one cold load (${CHROMIUM}, the script responses from the site): ${js.files} files, ` +
      `${kib(js.transferBytes)} transferred (encoded), ${kib(js.decodedBytes)} decoded`,
    `warm loads: at most ${kib(Math.max(...warmScriptBytes))} of JavaScript over the network per load (the rest from the cache)`,
    `the preview ${previewReloaded ? 'was reloaded' : 'was never reloaded: it followed every edit in place'}`,
    `problems (console errors, page errors, answers >= 400): ${problems.length}`,
    ...problems.map((problem) => `  ${problem}`),
  ];
  if (problems.length > 0) lines.push('INVALID: a run met problems, so these numbers mean nothing');
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main() {
  const dir = path.join(APP_ROOT, 'bench', '.tmp', `studio-${process.pid}`);
  stopOnSignals(() => rm(dir, { recursive: true, force: true }));
  const start = loadAverage();
  const problems: string[] = [];
  const site = await startSite(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  let results: Results;
  try {
    log(`${RUNS} runs of each measure on ${site.origin}`);
    results = await measure(browser, site.origin, problems);
  } finally {
    await browser.close();
    await site.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const { text, missed } = tableOf(results.rows);
  const report: Report = {
    generatedAt: new Date().toISOString(),
    machine: `${os.cpus().length} cores, Node ${process.version}`,
    runs: RUNS,
    loadAverage: { start, end: loadAverage() },
    ...results,
    problems,
  };
  await mkdir(path.dirname(REPORT), { recursive: true });
  await writeFile(REPORT, `${JSON.stringify({ ...report, missed }, null, 2)}\n`);
  print(report, text);
  if (problems.length > 0) process.exitCode = 1;
  else if (process.argv.includes('--strict') && (missed.length > 0 || results.previewReloaded)) process.exitCode = 1;
}

await main();
