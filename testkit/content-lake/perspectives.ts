/**
 * Which documents a request sees: the visibility rule of a public dataset, then the perspective.
 *
 * - Visibility (sanity.io/docs "IDs and paths", "Token handling and security"): a document whose _id has a
 *   `.` (drafts.*, versions.*, system documents such as the draft-mode secrets) is on a sub-path that only
 *   authenticated requests read. Without a token nothing is refused; the request sees the root path only,
 *   so `perspective=drafts` or `raw` show published content, as Sanity does for a public dataset.
 * - Perspective (sanity.io/docs/content-lake/perspectives and its v2025-02-19 changelog): `published`
 *   (the default from API version 2025-02-19 on; `raw` before), `raw`, `drafts` (`previewDrafts` is its
 *   old name), or a stack such as `rABC,drafts`: each layer overlays the ones right of it, published last.
 *   `versions.*` documents do not exist for API versions before 2025-02-19.
 */
import { applyPerspective, parseNdjson } from '../../lib/content/embedded.ts';

/** The repo's NDJSON reader (lib/content/embedded.ts), shared so the stand-in reads what the site reads. */
export { parseNdjson };

export type SanityDocument = { _id: string; _type: string; [key: string]: unknown };
/** A named view, or a stack of release ids and 'drafts' over published, leftmost first. */
export type Perspective = 'raw' | 'published' | 'drafts' | readonly string[];

const RELEASES_API = '2025-02-19';
const atLeast = (apiVersion: string, version: string) => apiVersion === 'X' || (apiVersion !== '1' && apiVersion >= version);

export function publishedIdOf(id: string): string {
  if (id.startsWith('drafts.')) return id.slice('drafts.'.length);
  if (id.startsWith('versions.')) return id.split('.').slice(2).join('.');
  return id;
}

/** The `perspective` parameter as Sanity reads it; throws with Sanity's wording on a value it refuses. */
export function parsePerspective(value: string | null | undefined, apiVersion: string): Perspective {
  if (!value) return atLeast(apiVersion, RELEASES_API) ? 'published' : 'raw';
  const names = value.split(',').map((name) => name.trim());
  const invalid = names.filter((name) => !/^[a-z0-9_]+$/i.test(name));
  if (invalid.length > 0) throw new Error(`Invalid perspective: ${invalid.map((name) => JSON.stringify(name)).join(', ')}`);
  if (names.length === 1 && (names[0] === 'raw' || names[0] === 'published' || names[0] === 'drafts')) return names[0];
  if (names.length === 1 && names[0] === 'previewDrafts') return 'drafts';
  if (names.includes('raw')) throw new Error('The raw perspective can not be combined with other perspectives');
  const layers = names.filter((name) => name !== 'published');
  if (layers.length === 0) return 'published';
  if (layers.length === 1 && layers[0] === 'drafts') return 'drafts';
  return layers;
}

/** What a query over `documents` sees with this perspective and these credentials. */
export function view(
  documents: SanityDocument[],
  perspective: Perspective,
  options: { authenticated: boolean; apiVersion: string },
): SanityDocument[] {
  let visible = options.authenticated ? documents : documents.filter((doc) => !doc._id.includes('.'));
  if (!atLeast(options.apiVersion, RELEASES_API)) visible = visible.filter((doc) => !doc._id.startsWith('versions.'));
  // The named views are the embedded source's own (lib/content/embedded.ts), so both answer alike.
  if (typeof perspective === 'string') return applyPerspective(visible, perspective);
  return overlay(visible, perspective);
}

/**
 * A release stack (applyPerspective has none): per published id, the first of versions.<layer>.<id> or
 * drafts.<id> for the layers in order, else the published document, under the published id. A version
 * marked `_system.delete` is the release unpublishing the document, so it is left out.
 */
function overlay(documents: SanityDocument[], layers: readonly string[]): SanityDocument[] {
  const byId = new Map(documents.map((doc) => [doc._id, doc]));
  const seen = new Set<string>();
  const result: SanityDocument[] = [];
  for (const doc of documents) {
    const id = publishedIdOf(doc._id);
    if (seen.has(id)) continue;
    seen.add(id);
    const candidates = [...layers.map((layer) => (layer === 'drafts' ? `drafts.${id}` : `versions.${layer}.${id}`)), id];
    const top = candidates.map((candidate) => byId.get(candidate)).find((found) => found !== undefined);
    if (!top || (top._system as { delete?: boolean } | undefined)?.delete === true) continue;
    result.push({ ...top, _id: id });
  }
  return result;
}
