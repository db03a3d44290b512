#!/usr/bin/env node
/**
 * npm run content -- import | export — the site's content between seed/production.ndjson and the
 * Sanity project the site is configured for (NEXT_PUBLIC_SANITY_PROJECT_ID, NEXT_PUBLIC_SANITY_DATASET;
 * SANITY_API_HOST when another Content Lake plays Sanity's API, as the tests' local lake does), with a
 * project token with Editor rights in SANITY_API_WRITE_TOKEN. Sanity's own libraries do the work
 * (@sanity/import, @sanity/export, as `sanity dataset import|export` does), through a client configured
 * by lib/env/public.ts like every other Sanity client of the site. The npm scripts read .env.local.
 *
 *   node scripts/content.ts import [--file <ndjson>]
 *     Every document of the file into the dataset, replacing documents with the same ids
 *     (createOrReplace), drafts and release versions included; documents of the dataset that the file
 *     does not have are left alone. System documents (an id with a dot that is not drafts.* or
 *     versions.*) are skipped and counted. Assets are refused: the seed carries none.
 *   node scripts/content.ts export [--file <ndjson>]
 *     The dataset's content documents (published, drafts, versions; no assets, no system documents)
 *     into the file, one per line sorted by _id, written whole or not at all (a temporary file renamed
 *     over it), so `git diff` shows only what changed.
 *
 *   node scripts/content.ts versions [--file <ndjson>] [--data-dir <dir>]
 *     Fills the privacy policy's record of versions (lib/policy/policy-record.ts) from the history there is,
 *     once: with a project configured, from the project's history (within its retention), with the token;
 *     else from the embedded default's own, the commits of the content file and the lake's history log in
 *     the data directory (default .data), written into the file. Adds only the dates the record lacks, so
 *     running it again adds nothing. Run it with the site's server stopped: a running one would take the
 *     file in as a hand edit, but both would write the history log.
 *
 * --file defaults to seed/production.ndjson. Anything missing or refused: a message naming it, exit code 1.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';

import { createClient, type SanityClient } from '@sanity/client';
import { exportDataset } from '@sanity/export';
import { sanityImport } from '@sanity/import';

import { POLICY_ID, missingVersions, versionsOf, type PolicyState, type PolicyVersion } from '../lib/policy/policy-record.ts';
import { POLICY_RECORD_QUERY } from '../lib/content/queries.ts';
import { Dataset } from '@school-site/content-lake';
import { isContentId, parseNdjson, type SanityDocument } from '@school-site/content-lake';
import { newId } from '@school-site/content-lake';
import { localLakeFiles } from '@school-site/content-lake';
import { sanityClientOptions, sanityConfig } from '../lib/env/public.ts';
import { APP_ROOT, SEED_FILE } from '../testkit/paths.ts';

const USAGE =
  'Usage: node scripts/content.ts import|export|versions [--file <ndjson>] (default seed/production.ndjson) [--data-dir <dir>] (versions; default .data)';
const TOKEN_HELP = 'a project token with Editor rights (sanity.io/manage → the project → API → Tokens)';

/** A refusal the operator can act on: printed as it is, exit code 1. */
class Refusal extends Error {}

/** The configured project's client with the write token, or a refusal naming what is missing. */
function projectClient(): { client: SanityClient; target: string } {
  let config;
  try {
    config = sanityConfig();
  } catch (error) {
    // Half a pair, or a SANITY_API_HOST that is no origin: the message names the variable.
    throw new Refusal((error as Error).message);
  }
  if (!config)
    throw new Refusal(
      'NEXT_PUBLIC_SANITY_PROJECT_ID and NEXT_PUBLIC_SANITY_DATASET are not set: set them (e.g. in .env.local) to the project and dataset.',
    );
  const token = process.env.SANITY_API_WRITE_TOKEN?.trim();
  if (!token) throw new Refusal(`SANITY_API_WRITE_TOKEN is not set: set it to ${TOKEN_HELP}.`);
  const client = createClient({ ...sanityClientOptions(config), token, useCdn: false });
  return { client, target: `project "${config.projectId}", dataset "${config.dataset}"` };
}

/** What a failed request means for the operator, by its HTTP status. */
function explain(error: unknown, target: string): Error {
  const status = (error as { statusCode?: unknown }).statusCode;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 401)
    return new Refusal(`Sanity refused SANITY_API_WRITE_TOKEN for ${target} (HTTP 401: ${message}); set it to ${TOKEN_HELP}.`);
  if (status === 403)
    return new Refusal(`SANITY_API_WRITE_TOKEN may not do this in ${target} (HTTP 403: ${message}); it needs Editor rights.`);
  if (status === 404) return new Refusal(`${target} was not found (HTTP 404: ${message}).`);
  return error instanceof Error ? error : new Error(message);
}

/** One authenticated read before anything is written: a wrong token or dataset is refused here, by status. */
async function checkAccess(client: SanityClient, target: string): Promise<void> {
  await client.fetch('count(*)', {}, { tag: 'content-io.check' }).catch((error: unknown) => {
    throw explain(error, target);
  });
}

const hasAssets = (doc: SanityDocument) => /^sanity\.\w+Asset$/.test(doc._type) || JSON.stringify(doc).includes('"_sanityAsset"');

async function importContent(file: string): Promise<void> {
  const all = parseNdjson(await readFile(file, 'utf8'), file);
  const documents = all.filter((doc) => isContentId(doc._id));
  const withAssets = documents.filter(hasAssets).map((doc) => doc._id);
  if (withAssets.length > 0) throw new Refusal(`${file} has assets (${withAssets.join(', ')}); this import carries documents only.`);
  const { client, target } = projectClient();
  await checkAccess(client, target);
  const { numDocs } = await sanityImport(documents, { client, operation: 'createOrReplace' }).catch((error: unknown) => {
    throw explain(error, target);
  });
  console.log(`Imported ${numDocs} documents from ${path.relative(process.cwd(), file)} into ${target}.`);
  const skipped = all.filter((doc) => !isContentId(doc._id)).map((doc) => doc._id);
  console.log(`Skipped ${skipped.length} system documents${skipped.length > 0 ? ` (${skipped.join(', ')})` : ''}.`);
}

/** The dataset's content documents, read with @sanity/export: published, drafts and versions, no assets. */
async function exportedDocuments(client: SanityClient, target: string): Promise<SanityDocument[]> {
  const documents: SanityDocument[] = [];
  await exportDataset({
    client,
    dataset: client.config().dataset!,
    assets: false,
    drafts: true,
    compress: false,
    // Each document is kept as it streams past; the archive (the same documents in a tarball) is not wanted.
    filterDocument: (doc) => {
      if (isContentId(doc._id)) documents.push(doc);
      return false;
    },
    outputPath: new Writable({ write: (_chunk, _encoding, done) => done() }),
  }).catch((error: unknown) => {
    throw explain(error, target);
  });
  return documents;
}

async function exportContent(file: string): Promise<void> {
  const { client, target } = projectClient();
  await checkAccess(client, target);
  const documents = await exportedDocuments(client, target);
  documents.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, documents.map((doc) => `${JSON.stringify(doc)}\n`).join(''));
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  console.log(`Wrote ${documents.length} documents from ${target} to ${path.relative(process.cwd(), file)}.`);
}

/** The policy as each transaction of the project's history that published it left it (Sanity's History API). */
async function projectStates(client: SanityClient): Promise<PolicyState[]> {
  const history = `/data/history/${client.config().dataset!}`;
  const body = await client.request<unknown>({ uri: `${history}/transactions/${POLICY_ID}?excludeContent=true&limit=1000` });
  // NDJSON: the client parses a single line as JSON, and hands several back as text.
  const lines = typeof body === 'string' ? body.split('\n').filter((line) => line.trim() !== '') : [JSON.stringify(body)];
  const states: PolicyState[] = [];
  for (const { id, timestamp, documentIDs } of lines.map(
    (line) => JSON.parse(line) as { id: string; timestamp: string; documentIDs: string[] },
  )) {
    if (!documentIDs.includes(POLICY_ID)) continue;
    const { documents } = await client.request<{ documents: SanityDocument[] }>({
      uri: `${history}/documents/${POLICY_ID}?revision=${id}`,
    });
    if (documents[0]) states.push({ at: timestamp, policy: documents[0] });
  }
  return states;
}

async function projectVersions(): Promise<string> {
  const { client, target } = projectClient();
  await checkAccess(client, target);
  const added = await (async () => {
    const { record } = await client.fetch(POLICY_RECORD_QUERY);
    const versions = missingVersions(versionsOf(record), await projectStates(client));
    for (const version of versions) await client.createIfNotExists(version);
    return versions;
  })().catch((error: unknown) => {
    throw explain(error, target);
  });
  return versionsSaid(added, target);
}

/** The embedded default's: the lake's own history of `file` (its commits, its log in `dataDir`), written into the file as the lake writes. */
async function localVersions(file: string, dataDir: string): Promise<string> {
  const dataset = await Dataset.open({ file, ...localLakeFiles(dataDir) });
  try {
    const timeline = await dataset.history.timeline();
    const states = timeline.entries.flatMap((entry, position): PolicyState[] => {
      const policy = entry.effects[POLICY_ID] ? dataset.history.stateAt(timeline, POLICY_ID, position) : null;
      return policy ? [{ at: entry.timestamp, policy }] : [];
    });
    const versions = missingVersions(versionsOf(dataset.documents()), states);
    if (versions.length > 0)
      await dataset.commit(async (tx) => versions.forEach((version) => tx.put(version._id, version)), newId(), 'backfill');
    return versionsSaid(versions, path.relative(process.cwd(), file));
  } finally {
    dataset.close();
  }
}

const versionsSaid = (added: PolicyVersion[], target: string) =>
  added.length === 0
    ? `The record in ${target} already holds every version its history shows.`
    : `Added ${added.length} versions of the privacy policy to ${target}: ${added.map(({ date }) => date).join(', ')}.`;

async function main(args: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { file: { type: 'string' }, 'data-dir': { type: 'string' } } });
  } catch (error) {
    throw new Refusal(`${(error as Error).message}\n${USAGE}`);
  }
  const [command, ...extra] = parsed.positionals;
  const file = path.resolve(parsed.values.file ?? SEED_FILE);
  if (command === 'import' && extra.length === 0) return importContent(file);
  if (command === 'export' && extra.length === 0) return exportContent(file);
  if (command === 'versions' && extra.length === 0)
    return console.log(
      await (sanityConfig()
        ? projectVersions()
        : localVersions(file, path.resolve(parsed.values['data-dir'] ?? path.join(APP_ROOT, '.data')))),
    );
  throw new Refusal(USAGE);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  // Anything else (the network, the file) by its message; DEBUG=1 (or DEBUG=sanity:*, the libraries' own) adds the stack.
  const failure = error instanceof Error ? error : new Error(String(error));
  console.error(error instanceof Refusal ? failure.message : `content: ${(process.env.DEBUG && failure.stack) || failure.message}`);
  process.exitCode = 1;
}
