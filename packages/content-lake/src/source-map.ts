/**
 * Content Source Maps (sanity.io/docs/content-source-maps) for the lake's query answers: which document
 * and field each string of a result came from, so stega can mark it and Presentation's overlays can open
 * that field in the Studio. groq-js does not trace values, so the documents are queried with every text
 * replaced by a marker naming its document and path; each result string that is exactly one marker is
 * mapped, and every marker is then put back to its text. Fields that queries compare rather than show
 * (`_`-prefixed ones, and Portable Text's style, list and mark names) are never marked.
 */
import { jsonPath } from '@sanity/client/csm';

import type { SanityDocument } from './documents.ts';

export type ContentSourceMap = {
  documents: { _id: string; _type: string }[];
  paths: string[];
  mappings: Record<string, { type: 'value'; source: { type: 'documentValue'; document: number; path: number } }>;
};

type Segment = string | number | { _key: string; _index: number };
type Source = { document: number; path: Segment[]; text: string };

const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKER = /\uE000([0-9a-z]+)\uE001/g;
const UNMARKED_KEYS = new Set(['style', 'listItem', 'marks']);

export type Marked = { documents: SanityDocument[]; sources: Source[]; origins: { _id: string; _type: string }[] };

/** `documents` with their texts replaced by markers, and what each marker stands for. */
export function markDocuments(documents: readonly SanityDocument[]): Marked {
  const sources: Source[] = [];
  const origins = documents.map(({ _id, _type }) => ({ _id, _type }));
  const mark = (value: unknown, document: number, path: Segment[]): unknown => {
    if (typeof value === 'string') {
      sources.push({ document, path, text: value });
      return `${OPEN}${(sources.length - 1).toString(36)}${CLOSE}`;
    }
    if (Array.isArray(value)) {
      return value.map((item, index) => {
        const key = (item as { _key?: unknown } | null)?._key;
        return mark(item, document, [...path, typeof key === 'string' && key !== '' ? { _key: key, _index: index } : index]);
      });
    }
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) =>
        key.startsWith('_') || UNMARKED_KEYS.has(key) ? [key, child] : [key, mark(child, document, [...path, key])],
      ),
    );
  };
  return { documents: documents.map((doc, index) => mark(doc, index, []) as SanityDocument), sources, origins };
}

/** The result with every text restored, and the map of the strings that came whole from one field. */
export function unmark(result: unknown, { sources, origins }: Marked): { result: unknown; resultSourceMap: ContentSourceMap } {
  const map: ContentSourceMap = { documents: [], paths: [], mappings: {} };
  const documentIndex = new Map<number, number>();
  const pathIndex = new Map<string, number>();
  const restore = (text: string) => text.replace(MARKER, (_, n: string) => sources[parseInt(n, 36)]?.text ?? '');
  const walk = (value: unknown, path: (string | number)[]): unknown => {
    if (typeof value === 'string') {
      const whole = /^\uE000([0-9a-z]+)\uE001$/.exec(value);
      const source = whole ? sources[parseInt(whole[1]!, 36)] : undefined;
      if (source) {
        if (!documentIndex.has(source.document)) documentIndex.set(source.document, map.documents.push(origins[source.document]!) - 1);
        const sourcePath = jsonPath(source.path);
        if (!pathIndex.has(sourcePath)) pathIndex.set(sourcePath, map.paths.push(sourcePath) - 1);
        map.mappings[jsonPath(path)] = {
          type: 'value',
          source: { type: 'documentValue', document: documentIndex.get(source.document)!, path: pathIndex.get(sourcePath)! },
        };
      }
      return restore(value);
    }
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...path, index]));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, walk(child, [...path, key])]));
  };
  return { result: walk(result, []), resultSourceMap: map };
}
