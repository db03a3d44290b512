/**
 * Sanity documents as the Content Lake stores them, and what their ids say: `drafts.<id>` is a draft,
 * `versions.<release>.<id>` a release's version, `_.releases.<release>` the release itself, any other id
 * with a `.` sits on a sub-path (system documents such as draft mode's preview secrets), and an id without
 * one is published.
 */
export type SanityDocument = { _id: string; _type: string; _rev?: string; [key: string]: unknown };

export const DRAFTS_PREFIX = 'drafts.';
export const VERSIONS_PREFIX = 'versions.';
export const RELEASES_PREFIX = '_.releases.';

export function publishedIdOf(id: string): string {
  if (id.startsWith(DRAFTS_PREFIX)) return id.slice(DRAFTS_PREFIX.length);
  if (id.startsWith(VERSIONS_PREFIX)) return id.split('.').slice(2).join('.');
  return id;
}

export const draftIdOf = (id: string) => `${DRAFTS_PREFIX}${publishedIdOf(id)}`;
export const isPublishedId = (id: string) => !id.includes('.');
export const isDraftId = (id: string) => id.startsWith(DRAFTS_PREFIX);
export const isVersionId = (id: string) => id.startsWith(VERSIONS_PREFIX);
export const isReleaseId = (id: string) => id.startsWith(RELEASES_PREFIX);
/**
 * Content a dataset export carries: published documents, drafts, release versions and the releases
 * themselves (a version means nothing without its release, and a release's publish must reach the file
 * as one write); not system documents.
 */
export const isContentId = (id: string) => isPublishedId(id) || isDraftId(id) || isVersionId(id) || isReleaseId(id);

/**
 * A release's name as ids and perspectives carry it (`r` and 8 letters or digits from the Studio):
 * letters, digits and `_` only, as a perspective allows no more, and none of the perspectives' own names.
 */
export const isReleaseName = (name: string) =>
  /^[A-Za-z0-9_]{1,64}$/.test(name) && !['raw', 'published', 'drafts', 'previewDrafts'].includes(name);
export const releaseDocumentId = (name: string) => `${RELEASES_PREFIX}${name}`;
export const versionIdOf = (release: string, publishedId: string) => `${VERSIONS_PREFIX}${release}.${publishedId}`;
/** The release a version belongs to (undefined for any other id). */
export const releaseOfVersion = (id: string) => (isVersionId(id) ? id.split('.')[1] : undefined);

/** Ids Sanity accepts: letters, digits, `_`, `-` and `.` between path segments, at most 128 characters. */
export const isValidId = (id: string) => /^[A-Za-z0-9_][\w-]*(\.[\w-]+)*$/.test(id) && id.length <= 128;

/**
 * A Sanity NDJSON export: one document per line, each with a string _id and _type, no _id twice (a merge
 * of two edits can leave one twice, and the dataset cannot hold both); blank lines allowed.
 */
export function parseNdjson(text: string, file = 'dataset'): SanityDocument[] {
  const seen = new Map<string, number>();
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
      if (!isDocument(doc)) throw new Error(`${file}:${lineNumber} is not a Sanity document (needs string _id and _type)`);
      const first = seen.get(doc._id);
      if (first !== undefined) throw new Error(`${file}:${lineNumber} repeats the _id "${doc._id}" of line ${first}`);
      seen.set(doc._id, lineNumber);
      return doc;
    });
}

export function isDocument(value: unknown): value is SanityDocument {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as SanityDocument)._id === 'string' &&
    typeof (value as SanityDocument)._type === 'string'
  );
}
