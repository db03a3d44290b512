import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

import { CONTENT_TYPES } from '../lib/content/types';
import { WEBHOOK_SECRET } from './e2e-servers';

/**
 * The browser tests publish by editing the server's copy of the dataset (never
 * the committed seed) and calling the signed webhook, exactly as a deployment would.
 */
export const E2E_CONTENT_FILE = path.resolve(process.env.CONTENT_FILE ?? '.data/e2e/seed/production.ndjson');
export const SEED_FILE = path.resolve('seed/production.ndjson');
export { WEBHOOK_SECRET };

export type Doc = { _id: string; _type: string; [key: string]: unknown };

export async function readDataset(file = E2E_CONTENT_FILE): Promise<Doc[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Doc);
}

export async function writeDataset(docs: Doc[], file = E2E_CONTENT_FILE): Promise<void> {
  await writeFile(file, docs.map((doc) => JSON.stringify(doc)).join('\n') + '\n');
}

/** Applies `edit` to a copy of document `id` and writes the dataset back (the browser tests' server's, or `file`). */
export async function editDocument(id: string, edit: (doc: Doc) => Doc | void, file = E2E_CONTENT_FILE): Promise<void> {
  const docs = await readDataset(file);
  const index = docs.findIndex((doc) => doc._id === id);
  if (index < 0) throw new Error(`No document ${id} in ${file}`);
  const copy = structuredClone(docs[index]!);
  docs[index] = edit(copy) ?? copy;
  await writeDataset(docs, file);
}

export async function restoreSeed(): Promise<void> {
  await writeDataset(await readDataset(SEED_FILE));
}

/** Posts a webhook call signed as Sanity signs it; `secret` lets a test forge a wrong one. */
export async function postWebhook(baseURL: string, body: unknown, secret = WEBHOOK_SECRET): Promise<Response> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const signature = await encodeSignatureHeader(payload, Date.now(), secret);
  return fetch(new URL('/api/revalidate', baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: signature },
    body: payload,
  });
}

/** Puts the seed back and refreshes every page, so later tests see the seed again. */
export async function resetContent(baseURL: string): Promise<void> {
  await restoreSeed();
  for (const _type of CONTENT_TYPES) await postWebhook(baseURL, { _type, _id: _type });
}
