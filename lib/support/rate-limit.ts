/**
 * A fixed-size sliding window per client address, kept in process memory.
 * It resets with the server, which is fine for slowing down floods from one address.
 */
export function createRateLimiter(max: number, windowMs: number, now: () => number = Date.now) {
  const hits = new Map<string, number[]>();
  return {
    /** Records one attempt; false when the address already used up its window. */
    take(key: string): boolean {
      const since = now() - windowMs;
      const recent = (hits.get(key) ?? []).filter((time) => time > since);
      if (recent.length >= max) {
        hits.set(key, recent);
        return false;
      }
      recent.push(now());
      hits.set(key, recent);
      // Keep memory bounded under address churn.
      if (hits.size > 10_000) {
        for (const [address, times] of hits) if (times.every((time) => time <= since)) hits.delete(address);
      }
      return true;
    },
  };
}
