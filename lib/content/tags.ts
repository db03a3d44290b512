import { VERSION_TYPE } from '@/lib/policy/policy-record';
import { CONTENT_TYPES, type ContentType } from '@/lib/shared/content-types';
import { fetchTags } from '@/lib/shared/public-pages';

/** The cache tags: one per content type. */
export type ContentTag = ContentType;

/**
 * The cache tags a changed document invalidates. The policy's record of versions is read by the policy's
 * pages (/privacy/versions and each version's), so a version written on its own (a backfill, or the lake
 * bringing the record up to date after a hand edit) refreshes them as a publish of the policy does.
 */
export function tagsForDocumentType(type: unknown): ContentTag[] {
  if (type === VERSION_TYPE) return ['privacyPolicy'];
  return CONTENT_TYPES.filter((tag) => tag === type);
}

/** The types whose documents pages read again once `tag` is revalidated. */
export const typesRefreshedBy = (tag: ContentTag): ContentType[] => CONTENT_TYPES.filter((type) => fetchTags(type).includes(tag));
