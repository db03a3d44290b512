/**
 * GROQ over the dataset (groq-js), with what Sanity's query API adds: perspectives, sync tags for the Live
 * Content API, and Content Source Maps.
 *
 * Sync tags: one per document a result depends on (`s1:` and a hash of its published id), found by
 * evaluating the query again without each document (up to MAX_TRACKED documents; above that every one
 * counts), plus one for the query itself. A write emits the tags of the documents it touched and those of
 * every recently answered query whose answer it changed, so a query is refreshed both when a document it
 * read changes and when a new document starts to match it.
 */
import { createHash } from 'node:crypto';

import { GroqSyntaxError } from 'groq-js';

import { evaluateGroq, parseGroq, type GroqTree } from './groq-js.ts';
import { publishedIdOf, type SanityDocument } from './documents.ts';
import { lakeError } from './errors.ts';
import { view, type Perspective } from './perspectives.ts';
import { markDocuments, unmark } from './source-map.ts';

export type Params = Record<string, unknown>;
type Reader = { perspective: Perspective; authenticated: boolean; apiVersion: string };
type Watched = Reader & { tree: GroqTree; params: Params; hash: string; syncTags: string[] };

const MAX_TRACKED = 200;
const MAX_WATCHED = 500;
const FAILED = '\u0000the query failed';

const digest = (value: unknown) =>
  createHash('sha1')
    .update(JSON.stringify(value) ?? 'null')
    .digest('base64url');

export class Queries {
  private readonly watched = new Map<string, Watched>();
  private readonly sanity: { projectId: string; dataset: string };

  constructor(sanity: { projectId: string; dataset: string }) {
    this.sanity = sanity;
  }

  syncTagOf = (id: string) =>
    `s1:${createHash('sha256')
      .update(`${this.sanity.dataset}:${publishedIdOf(id)}`)
      .digest('base64url')
      .slice(0, 6)}`;

  async run(tree: GroqTree, dataset: readonly SanityDocument[], params: Params, now = new Date()): Promise<unknown> {
    const value = await evaluateGroq(tree, { dataset: dataset as SanityDocument[], params, timestamp: now, sanity: this.sanity });
    return (await value.get()) ?? null;
  }

  /** The ids of the documents a `{query}` selection of a delete or patch picks, as stored. */
  async selectIds(documents: readonly SanityDocument[], text: string, params: Params): Promise<string[]> {
    const ids = await this.run(compile(text, params), documents, params);
    return (Array.isArray(ids) ? ids : [ids])
      .map((doc) => (doc as SanityDocument | null)?._id)
      .filter((id): id is string => typeof id === 'string');
  }

  /** The answer; `watch` keeps the query to tell its sync tags on later writes, `sourceMap` adds a Content Source Map. */
  async query(
    documents: readonly SanityDocument[],
    text: string,
    params: Params,
    reader: Reader,
    { sourceMap = false, watch = true } = {},
  ) {
    const started = performance.now();
    const tree = compile(text, params);
    const now = new Date();
    const seen = view(documents, reader.perspective, reader);
    let result: unknown;
    try {
      result = await this.run(tree, seen, params, now);
    } catch (error) {
      throw lakeError(400, 'queryExecutionError', (error as Error).message, { query: text });
    }
    const key = JSON.stringify([text, params, reader.perspective, reader.authenticated, reader.apiVersion]);
    const dependencies = watch ? await this.dependencies(tree, seen, params, now, result) : [];
    const syncTags = [...new Set(dependencies.map(this.syncTagOf)), `s1:${digest(key).slice(0, 6)}`];
    if (watch) {
      this.watched.delete(key);
      this.watched.set(key, { ...reader, tree, params, hash: digest(result), syncTags });
      if (this.watched.size > MAX_WATCHED) this.watched.delete(this.watched.keys().next().value!);
    }
    const mapped = sourceMap ? await this.withSourceMap(tree, documents, params, reader, now) : undefined;
    return { result, syncTags, ms: Math.round(performance.now() - started), resultSourceMap: mapped?.resultSourceMap };
  }

  /** The sync tags a write changes: those of the documents it touched, and of each watched query whose answer changed. */
  async tagsChangedBy(documents: readonly SanityDocument[], changedIds: string[]): Promise<string[]> {
    const tags = new Set(changedIds.map(this.syncTagOf));
    for (const entry of this.watched.values()) {
      const hash = digest(await this.run(entry.tree, view(documents, entry.perspective, entry), entry.params).catch(() => FAILED));
      if (hash === entry.hash) continue;
      entry.hash = hash;
      entry.syncTags.forEach((tag) => tags.add(tag));
    }
    return [...tags];
  }

  forget() {
    this.watched.clear();
  }

  /** The documents whose absence changes the answer: what the query read. */
  private async dependencies(tree: GroqTree, seen: SanityDocument[], params: Params, now: Date, answer: unknown) {
    if (seen.length > MAX_TRACKED) return seen.map((doc) => doc._id);
    const baseline = digest(answer);
    const ids: string[] = [];
    for (const [i, doc] of seen.entries()) {
      const without = digest(await this.run(tree, seen.toSpliced(i, 1), params, now).catch(() => FAILED));
      if (without !== baseline) ids.push(doc._id);
    }
    return ids;
  }

  private async withSourceMap(tree: GroqTree, documents: readonly SanityDocument[], params: Params, reader: Reader, now: Date) {
    const marked = markDocuments(documents);
    return unmark(await this.run(tree, view(marked.documents, reader.perspective, reader), params, now), marked);
  }
}

/** Parsed, or a 400 in Sanity's queryParseError shape (what the client turns into a code frame). */
export function compile(text: string, params: Params): GroqTree {
  let tree: GroqTree;
  try {
    tree = parseGroq(text, { params });
  } catch (error) {
    if (!(error instanceof GroqSyntaxError))
      throw lakeError(400, 'queryParseError', (error as Error).message, { query: text, start: 0, end: text.length });
    const start = Math.min(error.position, text.length);
    const description = error.message.replace(/^Syntax error in GROQ query at position \d+: /, '');
    throw lakeError(400, 'queryParseError', description, { query: text, start, end: Math.min(start + 1, text.length) });
  }
  const missing = parameterNames(tree)[0];
  if (missing !== undefined) {
    const start = Math.max(text.indexOf(`$${missing}`), 0);
    throw lakeError(400, 'queryParseError', `param $${missing} referenced, but not provided`, {
      query: text,
      start,
      end: start + missing.length + 1,
    });
  }
  return tree;
}

/** Names of the parameters a parsed query still refers to (those groq-js did not substitute). */
function parameterNames(node: unknown, names: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((child) => parameterNames(child, names));
  else if (typeof node === 'object' && node !== null) {
    const { type, name } = node as { type?: unknown; name?: unknown };
    if (type === 'Parameter' && typeof name === 'string') names.push(name);
    else if (type !== 'Value') Object.values(node).forEach((child) => parameterNames(child, names));
  }
  return names;
}

/** A query's answer over `documents` as a signed-in reader sees them with `perspective`: the site's seed tests read it so. */
export async function queryDocuments<T>(
  documents: readonly SanityDocument[],
  text: string,
  params: Params,
  perspective: Perspective,
): Promise<T> {
  const queries = new Queries({ projectId: 'local', dataset: 'production' });
  return (await queries.run(compile(text, params), view(documents, perspective, { authenticated: true, apiVersion: 'X' }), params)) as T;
}
