import { readFile, stat } from 'node:fs/promises';

import { evaluateGroq, parseGroq } from './groq-js.ts';
import { CONTENT_TYPES } from './types.ts';

/**
 * The embedded content source: a Sanity NDJSON export evaluated in-process
 * with groq-js. The file is re-read whenever it changes on disk, so a webhook
 * after an edit shows the new text without a restart. It serves the file as it
 * is and says what in it cannot be rendered (documentProblems); keeping the last
 * good content is lib/content/last-good.ts's job, for this source and the hosted one.
 */

/** 'raw' sees every document as stored, drafts and system documents included (draft-mode secrets live there). */
export type Perspective = 'published' | 'drafts' | 'raw';
type SanityDocument = { _id: string; _type: string; [key: string]: unknown };

type Loaded = {
  file: string;
  mtimeMs: number;
  size: number;
  documents: SanityDocument[];
  /** What keeps each site document from rendering, checked once per version of the file. */
  problems?: Promise<Map<string, string[]>>;
};
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

async function load(file: string): Promise<Loaded> {
  const info = await stat(file);
  if (loaded?.file === file && loaded.mtimeMs === info.mtimeMs && loaded.size === info.size) return loaded;
  const documents = parseNdjson(await readFile(file, 'utf8'), file);
  return (loaded = { file, mtimeMs: info.mtimeMs, size: info.size, documents });
}

/** Why the published `type` document of `file` cannot be rendered (missing, or breaking the schema's rules); empty when it can. */
export async function documentProblems(file: string, type: string): Promise<string[]> {
  const current = await load(file);
  // The schema engine loads on the first check (instrumentation-node.ts warms it at start).
  current.problems ??= import('./schema-check').then(({ problemsByType }) =>
    problemsByType(applyPerspective(current.documents, 'published'), CONTENT_TYPES),
  );
  return (await current.problems).get(type) ?? [];
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
  const dataset = applyPerspective((await load(file)).documents, perspective);
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
