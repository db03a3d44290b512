/**
 * A sliding window per client address, kept in process memory: at most `max` accepted attempts in any
 * `windowMs`. It resets with the server, which is fine for slowing down floods from one address.
 *
 * Each address keeps only its last `max` accepted times, in a ring, so an attempt costs the same
 * whatever `max` is (a load test sets it to millions) and refused attempts cost no memory.
 */
export function createRateLimiter(max: number, windowMs: number, now: () => number = Date.now, maxKeys = 100_000) {
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
        // A flood of new addresses within one window must not grow the table without end: past the bound
        // the longest-remembered address is forgotten (Map keeps insertion order), in constant time.
        if (hits.size >= maxKeys) hits.delete(hits.keys().next().value!);
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

/**
 * A site-wide ceiling on what may be written per window, whatever addresses the writes claim to come
 * from. Counts sit in ten buckets per window (a window that slides in tenths), so memory is fixed.
 * A write reserves its place first and gives it back if nothing was stored.
 */
export function createCeiling(max: number, windowMs: number, now: () => number = Date.now) {
  const BUCKETS = 10;
  const bucketMs = windowMs / BUCKETS;
  const counts = new Array<number>(BUCKETS).fill(0);
  let current = Math.floor(now() / bucketMs);

  /** Moves the window to the present, emptying the buckets that fell out of it. */
  function advance(): number {
    const bucket = Math.floor(now() / bucketMs);
    for (let step = current + 1; step <= Math.min(bucket, current + BUCKETS); step++) counts[step % BUCKETS] = 0;
    current = Math.max(current, bucket);
    return current;
  }

  const used = () => counts.reduce((sum, count) => sum + count, 0);

  return {
    /** Takes a place; null when the window is full, else a function that gives the place back. */
    reserve(): (() => void) | null {
      const bucket = advance();
      if (used() >= max) return null;
      counts[bucket % BUCKETS]! += 1;
      return () => {
        // A place from a bucket that has since left the window is already free.
        if (advance() - bucket < BUCKETS) counts[bucket % BUCKETS] = Math.max(0, counts[bucket % BUCKETS]! - 1);
      };
    },
    get used() {
      advance();
      return used();
    },
  };
}
