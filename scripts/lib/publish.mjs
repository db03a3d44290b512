/**
 * Publishing as an editor does on the embedded dataset, for the scripts: edit a copy of the NDJSON
 * dataset (CONTENT_FILE), then post the webhook signed as Sanity signs it.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';

import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook';

export async function readDataset(file) {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/** Writes the whole dataset to a sibling file and renames it in place: the server never reads half a file. */
export async function writeDataset(file, docs) {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${docs.map((doc) => JSON.stringify(doc)).join('\n')}\n`);
  await rename(temp, file);
}

/** Sets the text of privacy section `sectionIndex` (wrapping around); returns the section's heading. */
export async function setSectionText(file, sectionIndex, text) {
  const docs = await readDataset(file);
  const policy = docs.find((doc) => doc._id === 'privacyPolicy');
  if (!policy) throw new Error(`no privacyPolicy document in ${file}`);
  const sections = policy.sections ?? [];
  const section = sections[sectionIndex % sections.length];
  const span = section?.body?.[0]?.children?.[0];
  if (!span || typeof span.text !== 'string') throw new Error(`privacy section ${sectionIndex % sections.length} has no text span`);
  span.text = text;
  policy._updatedAt = new Date().toISOString();
  await writeDataset(file, docs);
  return section.heading;
}

/** Posts the publish webhook to `origin` (the site, or nginx in front of it); throws unless it answers 2xx. */
export async function postWebhook(origin, secret, body) {
  const payload = JSON.stringify(body);
  const signature = await encodeSignatureHeader(payload, Date.now(), secret);
  const response = await fetch(`${origin}/api/revalidate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: signature },
    body: payload,
  });
  const answer = await response.text();
  if (!response.ok) throw new Error(`webhook answered ${response.status}: ${answer}`);
  return answer;
}
