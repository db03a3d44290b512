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
import { isDraftId, isPublishedId, isVersionId, publishedIdOf, type SanityDocument } from './documents.ts';

/** A named view, or a stack of release ids and 'drafts' over published, leftmost first. */
export type Perspective = 'raw' | 'published' | 'drafts' | readonly string[];

const RELEASES_API = '2025-02-19';
export const atLeast = (apiVersion: string, version: string) => apiVersion === 'X' || (apiVersion !== '1' && apiVersion >= version);

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
  documents: readonly SanityDocument[],
  perspective: Perspective,
  options: { authenticated: boolean; apiVersion: string },
): SanityDocument[] {
  let visible = options.authenticated ? [...documents] : documents.filter((doc) => isPublishedId(doc._id));
  if (!atLeast(options.apiVersion, RELEASES_API)) visible = visible.filter((doc) => !isVersionId(doc._id));
  if (perspective === 'raw') return visible;
  if (perspective === 'published') return visible.filter((doc) => !isDraftId(doc._id) && !isVersionId(doc._id));
  return overlay(visible, perspective === 'drafts' ? ['drafts'] : perspective);
}

/**
 * A perspective stack: per published id, the first of versions.<layer>.<id> or drafts.<id> for the layers
 * in order, else the published document, under the published id; system documents as they are. A version
 * marked `_system.delete` is the release unpublishing the document, so it is left out too.
 */
function overlay(documents: readonly SanityDocument[], layers: readonly string[]): SanityDocument[] {
  const byId = new Map(documents.map((doc) => [doc._id, doc]));
  const seen = new Set<string>();
  const result: SanityDocument[] = [];
  for (const doc of documents) {
    if (!isPublishedId(doc._id) && !isDraftId(doc._id) && !isVersionId(doc._id)) {
      result.push(doc);
      continue;
    }
    const id = publishedIdOf(doc._id);
    if (seen.has(id)) continue;
    seen.add(id);
    const candidates = [...layers.map((layer) => (layer === 'drafts' ? `drafts.${id}` : `versions.${layer}.${id}`)), id];
    const top = candidates.map((candidate) => byId.get(candidate)).find((found) => found !== undefined);
    if (!top || (top._system as { delete?: boolean } | undefined)?.delete === true) continue;
    // Under the published id, naming the variant it came from, as the Content Lake does (the Studio reads `_originalId`).
    result.push(top._id === id ? top : { ...top, _id: id, _originalId: top._id });
  }
  return result;
}
