/**
 * A sliding window per client address, kept in process memory: at most `max` accepted attempts in any
 * `windowMs`. It resets with the server, which is fine for slowing down floods from one address.
 *
 * Each address keeps only its last `max` accepted times, in a ring, so an attempt costs the same
 * whatever `max` is (a load test sets it to millions) and refused attempts cost no memory.
 */
export function createRateLimiter(max: number, windowMs: number, now: () => number = Date.now) {
  const hits = new Map<string, { times: number[]; oldest: number }>();
  let lastSweep = now();

  /** Forgets addresses with nothing left in the window; once per window keeps memory bounded under address churn. */
  function sweep(since: number) {
    for (const [address, log] of hits) {
      const newest = log.times[(log.oldest + log.times.length - 1) % log.times.length];
      if (newest === undefined || newest <= since) hits.delete(address);
    }
  }

  return {
    /** Records one attempt; false when the address already used up its window. */
    take(key: string): boolean {
      const time = now();
      const since = time - windowMs;
      if (time - lastSweep >= windowMs) {
        sweep(since);
        lastSweep = time;
      }
      if (max < 1) return false;
      const log = hits.get(key);
      if (!log) {
        hits.set(key, { times: [time], oldest: 0 });
        return true;
      }
      if (log.times.length < max) {
        log.times.push(time);
        return true;
      }
      // The ring is full: the attempt is allowed only once its oldest time has left the window.
      if ((log.times[log.oldest] ?? Infinity) > since) return false;
      log.times[log.oldest] = time;
      log.oldest = (log.oldest + 1) % log.times.length;
      return true;
    },
    /** Addresses currently remembered (for tests). */
    get size() {
      return hits.size;
    },
  };
}
