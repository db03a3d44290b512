#!/usr/bin/env node
/**
 * npm run dev:lake — the site in development (http://localhost:3000), configured for a Sanity project
 * whose Content Lake is the local lake playing Sanity's hosted API (testkit/hosted.ts, over HTTPS as
 * Sanity's is) serving the seed: the hosted path's Studio, Live, draft preview and publishing without an
 * account. The lake's writes live in memory; the seed file is never changed. (Editing the seed itself
 * needs none of this: `npm run dev` and /studio.)
 *
 * What Sanity does around a project is done here too: a publish (a write to a published document)
 * posts the signed webhook to the site, as the project's GROQ webhook would; and a preview secret is
 * written as the Presentation tool writes one, so the printed link opens draft mode.
 */
import { spawn } from 'node:child_process';

import { createPreviewSecret } from '@sanity/preview-url-secret/create-secret';

import { CONTENT_TYPES } from '../lib/shared/content-types.ts';
import { SANITY_API_VERSION } from '../lib/env/public.ts';
import { postWebhook } from '../testkit/dataset.ts';
import { hostedEnv, lakeClient, LAKE_ORIGIN, LAKE_PROJECT, LAKE_TOKEN, startHostedLake } from '../testkit/hosted.ts';
import { trustLakeCertificate } from '../testkit/lake-tls.ts';
import { APP_ROOT, NEXT_BIN } from '../testkit/paths.ts';

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

const lake = await startHostedLake({
  onCommit: (changed) => {
    for (const doc of changed) if (!doc._id.includes('.') && isSiteType(doc._type)) void deliverWebhook(doc);
  },
});
trustLakeCertificate();
const client = lakeClient();
const { secret } = await createPreviewSecret(client, 'dev-lake', `${SITE}/studio`, 'dev');
// A draft to edit, as the Studio makes one on the first keystroke: a copy of the published document.
const settings = await client.getDocument('siteSettings');
if (settings) await client.createOrReplace({ ...settings, _id: 'drafts.siteSettings' });

const next = spawn(process.execPath, [NEXT_BIN, 'dev'], {
  cwd: APP_ROOT,
  env: { ...process.env, ...hostedEnv(), SANITY_REVALIDATE_SECRET: WEBHOOK_SECRET, NEXT_PUBLIC_SITE_URL: SITE },
  stdio: 'inherit',
});

const mutate = `curl -sk -X POST ${LAKE_ORIGIN}/v${SANITY_API_VERSION}/data/mutate/${LAKE_PROJECT.dataset} -H 'Authorization: Bearer ${LAKE_TOKEN}' -H 'Content-Type: application/json'`;
console.log(`
[dev:lake] Local Content Lake on ${LAKE_ORIGIN} (dataset "${LAKE_PROJECT.dataset}", token ${LAKE_TOKEN}), over HTTPS with its own
  certificate (.data/lake-tls/cert.pem): open https://${LAKE_PROJECT.projectId}.localhost:${new URL(LAKE_ORIGIN).port}/v1/ping once and accept it.
[dev:lake] The Studio (${SITE}/studio) signs in with the token: in its browser console run
  localStorage.setItem('__studio_auth_token_${LAKE_PROJECT.projectId}', JSON.stringify({ token: '${LAKE_TOKEN}' })) and reload.
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
