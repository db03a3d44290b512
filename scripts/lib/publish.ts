/**
 * Publishing as an editor does on the embedded dataset, for the measuring scripts: edit a copy of the
 * NDJSON dataset (CONTENT_FILE), post the webhook signed as Sanity signs it, and time until a plain GET
 * (nothing cached on the client) shows the edit.
 */
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

import { sleep } from '../../deploy/processes.ts';
import { APP_ROOT } from '../../lib/app-root.mjs';
import { median } from './report.ts';

const SEED_FILE = path.join(APP_ROOT, 'content', 'production.ndjson');
const VISIBLE_TIMEOUT_MS = 10_000;

type Doc = { _id: string; _updatedAt?: string; sections?: { heading?: string; body?: { children?: { text?: string }[] }[] }[] };

/** A copy of the seed dataset in `dir`, for a server to read and a run to edit. */
export async function seedCopy(dir: string) {
  const file = path.join(dir, 'content', 'production.ndjson');
  await mkdir(path.dirname(file), { recursive: true });
  await copyFile(SEED_FILE, file);
  return file;
}

/** Sets the text of privacy section `index` (wrapping around), written aside and renamed into place. */
export async function setSectionText(file: string, index: number, text: string) {
  const docs = (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Doc);
  const sections = docs.find((doc) => doc._id === 'privacyPolicy')?.sections ?? [];
  const span = sections[index % sections.length]?.body?.[0]?.children?.[0];
  if (typeof span?.text !== 'string') throw new Error(`privacy section ${index % sections.length} of ${file} has no text span`);
  span.text = text;
  docs.find((doc) => doc._id === 'privacyPolicy')!._updatedAt = new Date().toISOString();
  await writeFile(`${file}.tmp`, `${docs.map((doc) => JSON.stringify(doc)).join('\n')}\n`);
  await rename(`${file}.tmp`, file);
}

/** Posts the publish webhook to `origin` (the site, or nginx in front of it); throws unless it answers 2xx. */
export async function postWebhook(origin: string, secret: string, body: object) {
  const payload = JSON.stringify(body);
  const signature = await encodeSignatureHeader(payload, Date.now(), secret);
  const response = await fetch(`${origin}/api/revalidate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: signature },
    body: payload,
  });
  if (!response.ok) throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
}

/**
 * `edits` publishes of a privacy section; for each, the milliseconds from the webhook's answer to the
 * first GET /privacy on `origin` that shows the edit (null: not within 10 s).
 */
export async function publishes({
  origin,
  contentFile,
  secret,
  edits,
  log,
}: {
  origin: string;
  contentFile: string;
  secret: string;
  edits: number;
  log: (line: string) => void;
}) {
  const times: (number | null)[] = [];
  for (let edit = 1; edit <= edits; edit++) {
    // Letters, digits and spaces only, so the text reads the same in the HTML.
    const text = `Published edit ${edit} of run ${process.pid} at ${Date.now()}`;
    await setSectionText(contentFile, edit - 1, text);
    await postWebhook(origin, secret, { _type: 'privacyPolicy', _id: 'privacyPolicy' });
    const answered = performance.now();
    let seenMs: number | null = null;
    while (seenMs === null && performance.now() - answered < VISIBLE_TIMEOUT_MS) {
      if ((await (await fetch(`${origin}/privacy`, { cache: 'no-store' })).text()).includes(text))
        seenMs = Math.round(performance.now() - answered);
      else await sleep(20);
    }
    times.push(seenMs);
    log(`edit ${edit}: ${seenMs === null ? `not visible within ${VISIBLE_TIMEOUT_MS} ms` : `${seenMs} ms`}`);
  }
  const seen = times.filter((ms): ms is number => ms !== null);
  return { edits, medianMs: median(seen), worstMs: seen.length === edits ? Math.max(...seen) : null, times };
}
