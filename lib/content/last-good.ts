/**
 * The source's answer, or, when it fails (a malformed dataset, Sanity answering 5xx or not at all) or
 * answers null (the singleton is missing), the last answer that was good, so a page that re-renders at
 * that moment keeps its text instead of becoming an error page. Keys are a fixed, small set (one per
 * perspective and document type), so the map stays small.
 */
export function createLastGood(log: (message: string, error: unknown) => void = console.error) {
  const lastGood = new Map<string, unknown>();
  return async function withLastGood<T>(key: string, load: () => Promise<T>): Promise<T> {
    try {
      const value = await load();
      if (value === null) throw new Error(`the ${key} document is missing`);
      lastGood.set(key, value);
      return value;
    } catch (error) {
      if (!lastGood.has(key)) throw error;
      log(`content source failed for ${key}; serving the last good version`, error);
      return lastGood.get(key) as T;
    }
  };
}
