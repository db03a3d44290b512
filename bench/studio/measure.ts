/**
 * npm run bench -- studio — the editors' path in the real Sanity Studio at /studio on the embedded default
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
 * STUDIO_RUNS=20 of each; median and worst; targets: warm load worst <= 5 s, the editing rows worst
 * <= 2 s (the cold load and the JavaScript are reported only). Every page is watched for problems
 * (console errors, uncaught exceptions, answers >= 400), and the preview must never reload: any of these
 * makes the numbers meaningless, and the report lists it as a problem. bench/run.ts prints the report
 * and writes bench/reports/studio.json.
 *
 * The server is the build's standalone server from a private copy in bench/.tmp, with its own copy of
 * the seed and its own store (server.ts). Nothing is routed: the Studio asks no host but the site, which
 * is watched as in the tests (a foreign one is a problem), and Playwright's routing would turn the
 * browser's cache off and slow every request.
 */
import { chromium } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../testkit/browser.ts';
import { required, SEED } from '../../testkit/seed-copy.ts';
import { withTempDir } from '../lib/temp-dir.ts';
import { envInt, timesRow, type Report, type Row } from '../report.ts';
import { editorContext, log, type Bench } from './browser.ts';
import { coldLoads, studioJavaScript, warmLoads, type JsBytes, type WarmLoads } from './loads.ts';
import { startSite, type Site } from './server.ts';
import { editToPreview, firstEditToPreview, historyPanel, openPolicy, publishToPage, revertToDraft, type PreviewResult } from './steps.ts';

const TARGET_WARM_MS = 5000;
/** Every editing row's target: edit → preview, first edit, publish, history, revert. */
const TARGET_EDIT_MS = 2000;
const CHROMIUM = 'Chromium via Playwright';

type Results = {
  js: JsBytes;
  cold: number[];
  warm: WarmLoads;
  preview: PreviewResult;
  first: PreviewResult;
  publish: number[];
  history: number[];
  revert: number[];
};

/** Runs one step; the problems met during it are prefixed with its name, so the report says where they arose. */
async function during<T>({ problems }: Bench, name: string, step: () => Promise<T>): Promise<T> {
  const before = problems.length;
  try {
    return await step();
  } finally {
    for (let index = before; index < problems.length; index += 1) problems[index] = `${name}: ${problems[index]}`;
  }
}

/** Every measure, in one browser; the editing steps in one editor's session, each leaving the policy as the next expects. */
async function measureAll(bench: Bench): Promise<Results> {
  // Also the server's first Studio load after its start: the timed loads below find it warm.
  log('the Studio JavaScript of a cold load');
  const js = await during(bench, 'Studio JavaScript', () => studioJavaScript(bench));
  const cold = await during(bench, 'cold load', () => coldLoads(bench));
  const warm = await during(bench, 'warm load', () => warmLoads(bench));
  const context = await editorContext(bench);
  try {
    const session = await during(bench, 'opening the policy', () => openPolicy(bench, context));
    const preview = await during(bench, 'edit → preview', () => editToPreview(session));
    const first = await during(bench, 'first edit → preview', () => firstEditToPreview(session));
    const publish = await during(bench, 'publish → public page', () => publishToPage(session));
    const history = await during(bench, 'history → revisions', () => historyPanel(session));
    const seedTitle = required(SEED.privacy.title, 'privacyPolicy.title');
    const revert = await during(bench, 'revert → draft', () => revertToDraft(session, seedTitle));
    return { js, cold, warm, preview, first, publish, history, revert };
  } finally {
    await during(bench, 'closing the editor', () => context.close());
  }
}

const kib = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} KiB`;

/** One row per measure, in the order an editor meets them; the JavaScript last, reported only. */
function rowsOf({ js, cold, warm, preview, first, publish, history, revert }: Results): Row[] {
  return [
    timesRow('Studio load → content list, cold', `${CHROMIUM}, a new context each run`, cold),
    timesRow('Studio load → content list, warm', `${CHROMIUM}, one context, its cache warm`, warm.times, TARGET_WARM_MS),
    timesRow('edit → preview (Presentation)', `${CHROMIUM}, two tabs`, preview.times, TARGET_EDIT_MS),
    timesRow('first edit → preview, as Presentation opens', `${CHROMIUM}, two tabs`, first.times, TARGET_EDIT_MS),
    timesRow('publish → public page', `${CHROMIUM} publishes, Node fetch reads`, publish, TARGET_EDIT_MS),
    timesRow('history opened → revisions listed', `${CHROMIUM}, the policy opened afresh`, history, TARGET_EDIT_MS),
    timesRow('Revert to revision → draft in the form', `${CHROMIUM}, one tab`, revert, TARGET_EDIT_MS),
    {
      measure: 'Studio JavaScript, one cold load',
      client: `${CHROMIUM}, the script responses from the site`,
      result: `${js.files} files, ${kib(js.transferBytes)} transferred (encoded), ${kib(js.decodedBytes)} decoded`,
    },
  ];
}

/** The rows, what they rest on (notes), the raw runs (details), and the problems: the pages' and a reloaded preview. */
function reportOf(results: Results, { runs, problems }: Bench, site: Site): Report {
  const { warm, preview, first } = results;
  const reloads = [
    ...(preview.reloaded ? ['the preview reloaded during edit → preview: it must follow every edit in place'] : []),
    ...(first.reloaded ? ['the preview loaded again during first edit → preview: the edit waited for it'] : []),
  ];
  return {
    rows: rowsOf(results),
    notes: [
      `embedded default (local lake), the build's standalone server from a private copy; ${runs} runs of each`,
      ...(site.stale ? [`the build is stale (${site.stale}): these are the existing build's numbers`] : []),
      `warm loads: at most ${kib(Math.max(...warm.scriptBytes))} of JavaScript over the network per load (the rest from the cache)`,
      reloads.length === 0 ? 'the preview was never reloaded: it followed every edit in place' : 'the preview reloaded (see the problems)',
    ],
    details: {
      runs,
      times: {
        coldLoad: results.cold,
        warmLoad: warm.times,
        editToPreview: preview.times,
        firstEditToPreview: first.times,
        publishToPublicPage: results.publish,
        historyToRevisions: results.history,
        revertToDraft: results.revert,
      },
      warmLoadScriptBytes: warm.scriptBytes,
      javascript: results.js,
      previewReloaded: { editToPreview: preview.reloaded, firstEditToPreview: first.reloaded },
      ...(site.stale ? { staleBuild: site.stale } : {}),
    },
    problems: [...problems, ...reloads],
  };
}

export async function measure(args: string[]): Promise<Report> {
  if (args.length > 0) throw new Error(`studio takes no arguments (STUDIO_RUNS sets the runs), got: ${args.join(' ')}`);
  const runs = envInt('STUDIO_RUNS', 20);
  return withTempDir('studio', async (dir) => {
    const site = await startSite(dir, log);
    try {
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      try {
        log(`${runs} runs of each measure on ${site.origin}`);
        const bench: Bench = { browser, origin: site.origin, runs, problems: [] };
        return reportOf(await measureAll(bench), bench, site);
      } finally {
        await browser.close();
      }
    } finally {
      await site.stop();
    }
  });
}
