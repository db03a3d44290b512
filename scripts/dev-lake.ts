#!/usr/bin/env node
/**
 * npm run dev:lake — the site in development (http://localhost:3000), configured for a Sanity project
 * whose Content Lake is the local stand-in (testkit/content-lake) serving the seed: Live, draft preview
 * and publishing without an account. The lake's writes live in memory; the seed file is never changed.
 *
 * What Sanity does around a project is done here too: a publish (a write to a published document)
 * posts the signed webhook to the site, as the project's GROQ webhook would; and a preview secret is
 * written as the Presentation tool writes one, so the printed link opens draft mode.
 */
import { spawn } from 'node:child_process';

import { createPreviewSecret } from '@sanity/preview-url-secret/create-secret';

import { CONTENT_TYPES } from '../lib/content/types.ts';
import { SANITY_API_VERSION } from '../lib/env/public.ts';
import { startContentLake } from '../testkit/content-lake/server.ts';
import { postWebhook } from '../testkit/dataset.ts';
import { hostedEnv, lakeClient, LAKE_PORT, LAKE_PROJECT, LAKE_TOKEN } from '../testkit/hosted.ts';
import { APP_ROOT, NEXT_BIN, SEED_FILE } from '../testkit/paths.ts';

const SITE = 'http://localhost:3000';
const WEBHOOK_SECRET = 'dev-lake-webhook-secret';
const isSiteType = (type: unknown): boolean => (CONTENT_TYPES as readonly unknown[]).includes(type);

/** Sanity's webhook for one published document, projection {_type, _id}, signed with the shared secret. */
async function deliverWebhook(doc: { _id: string; _type: string }) {
  try {
    const answer = await postWebhook(SITE, { _type: doc._type, _id: doc._id }, WEBHOOK_SECRET);
    console.log(`[dev:lake] webhook for ${doc._id}: ${answer.status} ${await answer.text()}`);
  } catch (error) {
    console.error(`[dev:lake] webhook for ${doc._id} failed: ${(error as Error).message}`);
  }
}

const lake = await startContentLake({
  file: SEED_FILE,
  port: LAKE_PORT,
  token: LAKE_TOKEN,
  onCommit: (changed) => {
    for (const doc of changed) if (!doc._id.includes('.') && isSiteType(doc._type)) void deliverWebhook(doc);
  },
});
const client = lakeClient(lake.apiHost);
const { secret } = await createPreviewSecret(client, 'dev-lake', `${SITE}/studio`, 'dev');
// A draft to edit, as the Studio makes one on the first keystroke: a copy of the published document.
const settings = await client.getDocument('siteSettings');
if (settings) await client.createOrReplace({ ...settings, _id: 'drafts.siteSettings' });

const next = spawn(process.execPath, [NEXT_BIN, 'dev'], {
  cwd: APP_ROOT,
  env: { ...process.env, ...hostedEnv(), SANITY_REVALIDATE_SECRET: WEBHOOK_SECRET, NEXT_PUBLIC_SITE_URL: SITE },
  stdio: 'inherit',
});

const mutate = `curl -s -X POST ${lake.apiHost}/v${SANITY_API_VERSION}/data/mutate/${LAKE_PROJECT.dataset} -H 'Authorization: Bearer ${LAKE_TOKEN}' -H 'Content-Type: application/json'`;
console.log(`
[dev:lake] Local Content Lake on ${lake.apiHost} (dataset "${LAKE_PROJECT.dataset}", token ${LAKE_TOKEN}).
[dev:lake] The site: ${SITE}
[dev:lake] Draft preview (valid for an hour): ${SITE}/api/draft-mode/enable?sanity-preview-secret=${secret}&sanity-preview-pathname=/privacy
[dev:lake] Edit a draft, and the open preview follows:
  ${mutate} -d '{"mutations":[{"patch":{"id":"drafts.siteSettings","set":{"productName":"Hallway (draft)"}}}]}'
[dev:lake] Publish (the webhook refreshes the pages; reload to see it):
  ${mutate} -d '{"mutations":[{"patch":{"id":"siteSettings","set":{"productName":"Hallway Live"}}}]}'
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => next.kill(signal));
}
next.once('exit', (code) => void lake.stop().then(() => process.exit(code ?? 0)));
