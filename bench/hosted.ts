#!/usr/bin/env node
/**
 * npm run measure:hosted — the editors' path on the hosted production build (.next-hosted, built by
 * npm test or npm run build:hosted) against the local Content Lake, in Debian's Chromium:
 *
 *   publish → open tab      a published document written to the lake and its signed webhook posted, as
 *                           Sanity does on publish, until a reload of a tab already open on /privacy shows it
 *   draft edit → preview    a draft written to the lake, until the preview open in draft mode (entered
 *                           through the secret flow) shows it, with no reload: Sanity Live's event
 *
 * HOSTED_EDITS=20 of each; median and worst. `--strict` exits 1 when a worst is over 2 s.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { chromium, type Page } from '@playwright/test';
import type { SanityDocument } from '@sanity/client';
import { createPreviewSecret } from '@sanity/preview-url-secret/create-secret';

import { startAppServer } from '../testkit/app-server.ts';
import { postWebhook } from '../testkit/dataset.ts';
import { APP_ROOT } from '../testkit/paths.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../testkit/browser.ts';
import { HOSTED_DIST_DIR, hostedEnv, lakeClient, startHostedLake } from '../testkit/hosted.ts';
import { trustLakeCertificate } from '../testkit/lake-tls.ts';
import { envInt, median, table, verdict } from './lib/report.ts';

const TARGET_WORST_MS = 2000;
const WEBHOOK_SECRET = 'measure-hosted-webhook-secret';
const log = (line: string) => process.stderr.write(`[hosted] ${line}\n`);

if (!existsSync(path.join(APP_ROOT, HOSTED_DIST_DIR, 'BUILD_ID'))) {
  console.error(`no hosted build in ${HOSTED_DIST_DIR}: run npm run build:hosted first`);
  process.exit(1);
}

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

  log(`publish → open tab, ${edits} publishes`);
  const visitor = await browser.newPage({ ignoreHTTPSErrors: true });
  await visitor.goto(`${server.origin}/privacy`);
  const publishTimes = await timed(
    edits,
    async (text) => {
      await client.createOrReplace(withIntro(published, 'privacyPolicy', text));
      const answer = await postWebhook(server.origin, { _type: 'privacyPolicy', _id: 'privacyPolicy' }, WEBHOOK_SECRET);
      if (!answer.ok) throw new Error(`the webhook answered ${answer.status}: ${await answer.text()}`);
    },
    async (text) => {
      const deadline = performance.now() + VISIBLE_TIMEOUT_MS;
      do await visitor.reload();
      while (!(await shows(visitor, text)) && performance.now() < deadline);
      if (!(await shows(visitor, text))) throw new Error(`the publish did not show within ${VISIBLE_TIMEOUT_MS} ms`);
    },
  );

  log(`draft edit → preview, ${edits} edits`);
  const reviewer = await browser.newPage({ ignoreHTTPSErrors: true });
  const { secret } = await createPreviewSecret(client, 'measure-hosted', `${server.origin}/studio`, 'measure');
  // Sanity Live has its stream open once the Live Content API answers it: from then on every draft edit reaches the preview.
  const connected = reviewer.waitForResponse((response) => response.url().includes('/data/live/events/') && response.ok());
  await reviewer.goto(`${server.origin}/api/draft-mode/enable?sanity-preview-secret=${secret}&sanity-preview-pathname=/privacy`);
  await connected;
  // A mark on this document: a reload would lose it.
  await reviewer.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const previewTimes = await timed(
    edits,
    async (text) => void (await client.createOrReplace(withIntro(published, 'drafts.privacyPolicy', text))),
    async (text) =>
      void (await reviewer.waitForFunction((expected) => document.querySelector('article')?.textContent?.includes(expected), text, {
        polling: 'raf',
        timeout: VISIBLE_TIMEOUT_MS,
      })),
  );
  const reloaded = !(await reviewer.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument));

  const rows = [['measure', 'result', 'target', '']];
  let met = true;
  for (const [name, times] of [
    ['publish → open tab (next load)', publishTimes],
    ['draft edit → preview (no reload)', previewTimes],
  ] as const) {
    const worst = Math.max(...times);
    met &&= worst <= TARGET_WORST_MS;
    rows.push([
      name,
      `median ${median(times)} ms, worst ${worst} ms (${times.length} edits)`,
      `worst <= ${TARGET_WORST_MS} ms`,
      verdict(worst <= TARGET_WORST_MS),
    ]);
  }
  process.stdout.write(
    `measure:hosted  ${new Date().toISOString()}  local Content Lake, Chromium (Playwright), hosted build on next start\n\n${table(rows)}\n`,
  );
  process.stdout.write(`the preview ${reloaded ? 'was reloaded' : 'was never reloaded: every draft edit arrived through Sanity Live'}\n`);
  met &&= !reloaded;
  if (process.argv.includes('--strict') && !met) process.exitCode = 1;
} finally {
  await browser.close();
  await server.stop();
  await lake.stop();
}
