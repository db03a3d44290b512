/**
 * A value loaded at most once per `ttlMs`, however many callers ask: callers during a load share it
 * (single flight), a load that takes longer than `timeoutMs` or fails gives the last good value, or
 * `fallback` before there is one. For texts read outside a page render (the proxy's refusal pages),
 * where a flood of requests must not become a flood of reads and a slow source must not hold answers.
 */
export function memoize<T>(
  load: () => Promise<T>,
  { ttlMs, timeoutMs, fallback, now = Date.now }: { ttlMs: number; timeoutMs: number; fallback: T; now?: () => number },
) {
  let value: { data: T; at: number } | undefined;
  let inFlight: Promise<T> | undefined;

  async function refresh(): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const data = await Promise.race([load(), timeout]);
      value = { data, at: now() };
      return data;
    } catch (error) {
      console.error('memoize: load failed; using the last good value', error);
      // Counted as loaded, so a failing source is asked again only after the TTL.
      const data = value?.data ?? fallback;
      value = { data, at: now() };
      return data;
    } finally {
      clearTimeout(timer);
      inFlight = undefined;
    }
  }

  return function get(): Promise<T> {
    if (value && now() - value.at < ttlMs) return Promise.resolve(value.data);
    return (inFlight ??= refresh());
  };
}
