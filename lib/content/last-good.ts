/**
 * The one layer that keeps the last good content. A page renders from the source only when its cache
 * entry is gone: after a publish the webhook accepted (publish-check.ts has checked those documents,
 * and refuses a broken publish with 503 so Sanity retries; that check keeps nothing), or on a cold
 * cache. By then the content may have changed again, or the source may fail: hosted Sanity answering
 * 5xx or not at all, the embedded file malformed, a document missing or breaking the schema (the
 * embedded source reports that, embedded.ts). Any of these throws from `load`, and this answers with
 * the last answer that was good, so the page keeps its text instead of becoming an error page, and that
 * answer is cached until the next accepted publish (fetch.ts runs this inside its cached read). Here,
 * above both sources, one memory covers them all; the sources only say what is wrong. Keys are one per query
 * and its params: the pages ask only for what the dataset holds, so the map stays small.
 */
export function createLastGood(log: (message: string, error: unknown) => void = console.error) {
  const lastGood = new Map<string, unknown>();
  return async function withLastGood<T>(key: string, load: () => Promise<T>): Promise<T> {
    try {
      const value = await load();
      lastGood.set(key, value);
      return value;
    } catch (error) {
      if (!lastGood.has(key)) throw error;
      log(`content: ${key} could not be read or rendered; serving its last good version`, error);
      return lastGood.get(key) as T;
    }
  };
}
