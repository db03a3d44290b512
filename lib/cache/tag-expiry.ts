/**
 * Expiring cache tags from anywhere in the server process: a request's handler, a timer, a file watcher.
 * Next's revalidateTag works only inside a request (it throws "static generation store missing"
 * elsewhere), so this goes through the cache handler Next runs (next.config.ts cacheHandlers), calling
 * its updateTags: the documented method Next itself calls for revalidateTag, which expires the tags for
 * both of Next's caches in this process (the 'use cache' entries and the prerendered pages read the same
 * tag state), and for every instance when they share Redis (use-cache-handler.ts).
 *
 * The handler is lent here when Next loads it; until then (a release published while the server starts)
 * the tags wait, and are expired when it arrives, before Next reads any cache entry. State lives on
 * globalThis: Node loads the handlers unbundled, and each server bundle has its own copy of this module.
 * Only relative imports with real extensions: Node loads this file with the handlers.
 */

type UpdateTags = (tags: string[]) => Promise<void>;
type State = { update?: UpdateTags; waiting: Set<string> };

const KEY = Symbol.for('school-site.tag-expiry');
const state = (): State => ((globalThis as typeof globalThis & { [KEY]?: State })[KEY] ??= { waiting: new Set() });

/** The cache handler Next runs lends its updateTags (once, when Next loads it); tags waiting for it expire now. */
export function lendUpdateTags(update: UpdateTags): Promise<void> {
  const current = state();
  current.update = update;
  const waiting = [...current.waiting];
  current.waiting.clear();
  return waiting.length > 0 ? update(waiting) : Promise.resolve();
}

/**
 * Expires `tags` now, in or out of a request: the next read of an entry or page carrying one renders it
 * again. The expiry is applied before this returns (the promise is the other instances' share, through
 * Redis), so a caller that answers after it never answers before the pages would show the change.
 */
export function expireTags(tags: readonly string[]): Promise<void> {
  const current = state();
  if (current.update) return current.update([...tags]);
  for (const tag of tags) current.waiting.add(tag);
  return Promise.resolve();
}
