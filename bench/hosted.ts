/**
 * npm run bench -- hosted — the editors' path on the hosted production build (.next-hosted, built by
 * `npm test -- build`) against the local Content Lake, in Debian's Chromium:
 *
 *   publish → open tab      a published document written to the lake and its signed webhook posted, as
 *                           Sanity does on publish, until a reload of a tab already open on /privacy shows it
 *   draft edit → preview    a draft written to the lake, until the preview open in draft mode (entered
 *                           through the secret flow) shows it, with no reload: Sanity Live's event
 *
 * HOSTED_EDITS=20 of each; median and worst; targets worst <= 2 s, and the preview never reloaded.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { chromium, type Browser, type Page } from '@playwright/test';
import type { SanityDocument } from '@sanity/client';
import { createPreviewSecret } from '@sanity/preview-url-secret/create-secret';

import { startAppServer } from '../testkit/app-server.ts';
import { postWebhook } from '../testkit/dataset.ts';
import { APP_ROOT } from '../testkit/paths.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../testkit/browser.ts';
import { HOSTED_DIST_DIR, hostedEnv, lakeClient, startHostedLake } from '../testkit/hosted.ts';
import { trustLakeCertificate } from '../testkit/lake-tls.ts';
import { envInt, timesRow, type Report } from './report.ts';

const TARGET_WORST_MS = 2000;
const WEBHOOK_SECRET = 'measure-hosted-webhook-secret';
const log = (line: string) => process.stderr.write(`[hosted] ${line}\n`);

type Section = { body: { children: { text: string }[] }[] };
type Policy = SanityDocument & { sections: Section[] };
const withIntro = (doc: Policy, id: string, text: string): Policy => {
  const copy = structuredClone({ ...doc, _id: id });
  copy.sections[0]!.body[0]!.children[0]!.text = text;
  return copy;
};

/** Runs `edit` `count` times; each time from just before the write until `visible` resolves. */
async function timed(count: number, edit: (text: string) => Promise<void>, visible: (text: string) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const text = `Measured edit ${i} ${Date.now()}.`;
    const started = performance.now();
    await edit(text);
    await visible(text);
    times.push(Math.round(performance.now() - started));
    if (process.env.HOSTED_VERBOSE) log(`${i + 1}: ${times.at(-1)} ms`);
  }
  return times;
}

const VISIBLE_TIMEOUT_MS = 30_000;
const shows = async (page: Page, text: string) => (await page.locator('article').innerText()).includes(text);

const CLIENT = 'Chromium via Playwright';

export async function measure(): Promise<Report> {
  if (!existsSync(path.join(APP_ROOT, HOSTED_DIST_DIR, 'BUILD_ID')))
    throw new Error(`no hosted build in ${HOSTED_DIST_DIR}: run npm test -- build first`);
  const edits = envInt('HOSTED_EDITS', 20);
  // The build has this port inlined (SANITY_API_HOST), so the lake must listen there.
  const lake = await startHostedLake();
  trustLakeCertificate();
  const client = lakeClient();
  const server = await startAppServer({
    ...hostedEnv(),
    NEXT_DIST_DIR: HOSTED_DIST_DIR,
    SANITY_REVALIDATE_SECRET: WEBHOOK_SECRET,
    DATA_DIR: path.join(APP_ROOT, '.data', 'measure-hosted'),
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const published = (await client.getDocument<Policy>('privacyPolicy'))!;
    const publishTimes = await publishToOpenTab(browser, server.origin, client, published, edits);
    const preview = await draftToPreview(browser, server.origin, client, published, edits);
    return {
      rows: [
        timesRow('publish → open tab (next load)', CLIENT, publishTimes, TARGET_WORST_MS),
        timesRow('draft edit → preview (no reload)', CLIENT, preview.times, TARGET_WORST_MS),
        {
          measure: 'the preview reloaded',
          client: CLIENT,
          result: preview.reloaded ? 'yes' : 'never',
          target: 'never',
          met: !preview.reloaded,
        },
      ],
      notes: [
        'local Content Lake (HTTPS, HTTP/2) playing Sanity; the hosted build on next start; every draft edit reaches the preview through Sanity Live',
      ],
      details: { edits, publishTimes, previewTimes: preview.times },
    };
  } finally {
    await browser.close();
    await server.stop();
    await lake.stop();
  }
}

type Lake = ReturnType<typeof lakeClient>;

/** Each run: a published write and its signed webhook, as Sanity publishes, until a reload of an open tab shows it. */
async function publishToOpenTab(browser: Browser, origin: string, client: Lake, published: Policy, edits: number) {
  log(`publish → open tab, ${edits} publishes`);
  const visitor = await browser.newPage({ ignoreHTTPSErrors: true });
  await visitor.goto(`${origin}/privacy`);
  return timed(
    edits,
    async (text) => {
      await client.createOrReplace(withIntro(published, 'privacyPolicy', text));
      const answer = await postWebhook(origin, { _type: 'privacyPolicy', _id: 'privacyPolicy' }, WEBHOOK_SECRET);
      if (!answer.ok) throw new Error(`the webhook answered ${answer.status}: ${await answer.text()}`);
    },
    async (text) => {
      const deadline = performance.now() + VISIBLE_TIMEOUT_MS;
      do await visitor.reload();
      while (!(await shows(visitor, text)) && performance.now() < deadline);
      if (!(await shows(visitor, text))) throw new Error(`the publish did not show within ${VISIBLE_TIMEOUT_MS} ms`);
    },
  );
}

/** Each run: a draft write, until the preview open in draft mode (entered through the secret flow) shows it without a reload. */
async function draftToPreview(browser: Browser, origin: string, client: Lake, published: Policy, edits: number) {
  log(`draft edit → preview, ${edits} edits`);
  const reviewer = await browser.newPage({ ignoreHTTPSErrors: true });
  const { secret } = await createPreviewSecret(client, 'measure-hosted', `${origin}/studio`, 'measure');
  // Sanity Live has its stream open once the Live Content API answers it: from then on every draft edit reaches the preview.
  const connected = reviewer.waitForResponse((response) => response.url().includes('/data/live/events/') && response.ok());
  await reviewer.goto(`${origin}/api/draft-mode/enable?sanity-preview-secret=${secret}&sanity-preview-pathname=/privacy`);
  await connected;
  // A mark on this document: a reload would lose it.
  await reviewer.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const times = await timed(
    edits,
    async (text) => void (await client.createOrReplace(withIntro(published, 'drafts.privacyPolicy', text))),
    async (text) =>
      void (await reviewer.waitForFunction((expected) => document.querySelector('article')?.textContent?.includes(expected), text, {
        polling: 'raf',
        timeout: VISIBLE_TIMEOUT_MS,
      })),
  );
  const reloaded = !(await reviewer.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument));
  return { times, reloaded };
}
