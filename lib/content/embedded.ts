import { readFile, stat } from 'node:fs/promises';

import { evaluateGroq, parseGroq } from './groq-js.ts';
import { CONTENT_TYPES } from './types.ts';

/**
 * The embedded content source: a Sanity NDJSON export evaluated in-process
 * with groq-js. The file is re-read whenever it changes on disk, so a webhook
 * after an edit shows the new text without a restart. What cannot be rendered
 * never replaces what could: an unreadable file keeps the last good dataset,
 * and a site document that is missing or breaks the schema keeps its last good version.
 */

/** 'raw' sees every document as stored, drafts and system documents included (draft-mode secrets live there). */
export type Perspective = 'published' | 'drafts' | 'raw';
type SanityDocument = { _id: string; _type: string; [key: string]: unknown };

type Loaded = { file: string; mtimeMs: number; size: number; documents: SanityDocument[] };
let loaded: Loaded | undefined;

export function parseNdjson(text: string, file = 'dataset'): SanityDocument[] {
  return text
    .split('\n')
    .map((line, index) => [line.trim(), index + 1] as const)
    .filter(([line]) => line !== '')
    .map(([line, lineNumber]) => {
      let doc: unknown;
      try {
        doc = JSON.parse(line);
      } catch (error) {
        throw new Error(`${file}:${lineNumber} is not valid JSON`, { cause: error });
      }
      if (
        typeof doc !== 'object' ||
        doc === null ||
        typeof (doc as SanityDocument)._id !== 'string' ||
        typeof (doc as SanityDocument)._type !== 'string'
      ) {
        throw new Error(`${file}:${lineNumber} is not a Sanity document (needs string _id and _type)`);
      }
      return doc as SanityDocument;
    });
}

/** `fresh`, with each site document that is missing or breaks the schema put back as it was in `previous`. */
async function keepLastGood(fresh: SanityDocument[], previous: SanityDocument[]): Promise<SanityDocument[]> {
  // Only types that had a version to fall back to (and the schema engine loads only then).
  const types = CONTENT_TYPES.filter((type) => previous.some((doc) => doc._type === type && !isDraft(doc)));
  if (types.length === 0) return fresh;
  const { problemsByType } = await import('./schema-check');
  const broken = await problemsByType(applyPerspective(fresh, 'published'), types);
  if (broken.size === 0) return fresh;
  const kept = previous.filter((doc) => broken.has(doc._type) && !isDraft(doc));
  for (const [type, problems] of broken) console.error(`content: ${type} kept at its last good version:\n  ${problems.join('\n  ')}`);
  return [...fresh.filter((doc) => isDraft(doc) || !broken.has(doc._type)), ...kept];
}

async function documentsOf(file: string): Promise<SanityDocument[]> {
  const info = await stat(file);
  if (loaded?.file === file && loaded.mtimeMs === info.mtimeMs && loaded.size === info.size) return loaded.documents;
  const previous = loaded?.file === file ? loaded.documents : undefined;
  let documents: SanityDocument[];
  try {
    const fresh = parseNdjson(await readFile(file, 'utf8'), file);
    documents = previous ? await keepLastGood(fresh, previous) : fresh;
  } catch (error) {
    if (!previous) throw error;
    console.error(`content: ${file} could not be read; serving the last good dataset`, error);
    documents = previous;
  }
  loaded = { file, mtimeMs: info.mtimeMs, size: info.size, documents };
  return documents;
}

const DRAFT_PREFIX = 'drafts.';
const isDraft = (doc: SanityDocument) => doc._id.startsWith(DRAFT_PREFIX) || doc._id.startsWith('versions.');

/**
 * What Sanity's perspectives return: published hides drafts; drafts shows each
 * document's draft in place of its published version, under the published id.
 */
export function applyPerspective(documents: SanityDocument[], perspective: Perspective): SanityDocument[] {
  if (perspective === 'raw') return documents;
  const published = documents.filter((doc) => !isDraft(doc));
  if (perspective === 'published') return published;
  const byId = new Map(published.map((doc) => [doc._id, doc]));
  for (const draft of documents.filter((doc) => doc._id.startsWith(DRAFT_PREFIX))) {
    const id = draft._id.slice(DRAFT_PREFIX.length);
    byId.set(id, { ...draft, _id: id });
  }
  return [...byId.values()];
}

export async function queryDataset<T>(file: string, query: string, params: Record<string, unknown>, perspective: Perspective): Promise<T> {
  const dataset = applyPerspective(await documentsOf(file), perspective);
  const result = await evaluateGroq(parseGroq(query, { params }), { dataset, params });
  return (await result.get()) as T;
}

/**
 * Just enough of a Sanity client for @sanity/preview-url-secret, which validates
 * draft-mode secrets with a GROQ query: the same validation then runs against
 * the embedded dataset, so draft mode needs a real secret document here too.
 */
export function embeddedSecretClient(file: string) {
  const client = {
    config: () => ({ token: 'embedded-dataset' }),
    withConfig: () => client,
    fetch: (query: string, params: Record<string, unknown> = {}) => queryDataset(file, query, params, 'raw'),
  };
  return client;
}
