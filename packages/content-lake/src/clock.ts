/**
 * The lake's times, in one format everywhere (transactions, events, `_createdAt`/`_updatedAt`, the
 * history's log and the git revisions before it): UTC with microseconds, as Sanity's transactions carry
 * them, e.g. 2026-01-02T03:04:05.123456Z. The fixed width keeps them ordered as strings too.
 */
const MICROS_PER_MS = 1000;

/** Microseconds since the epoch of an ISO time (any number of fraction digits) or a Date; NaN when unreadable. */
export function microsOf(time: string | Date): number {
  if (time instanceof Date) return time.getTime() * MICROS_PER_MS;
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(time);
  if (!match) return Date.parse(time) * MICROS_PER_MS;
  const [, seconds, fraction = '', zone] = match;
  return Date.parse(`${seconds}${zone}`) * MICROS_PER_MS + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** `micros` (since the epoch) in the lake's format. */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / MICROS_PER_MS);
  const extra = String(micros - ms * MICROS_PER_MS).padStart(3, '0');
  return new Date(ms).toISOString().replace(/Z$/, `${extra}Z`);
}

/** Any time in the lake's format; a value that is not a time is returned as it is. */
export function lakeTime(time: string | Date): string {
  const micros = microsOf(time);
  return Number.isFinite(micros) ? formatMicros(micros) : String(time);
}

/**
 * The wall clock in microseconds: the millisecond is the system clock's, the microseconds within it come
 * from the monotonic clock, which the system's adjustments do not move (so they are off by under 1 ms).
 */
const wallMicros = () => Date.now() * MICROS_PER_MS + (Math.floor(performance.now() * MICROS_PER_MS) % MICROS_PER_MS);

/**
 * The times of one dataset's transactions: strictly increasing in commit order, at least a millisecond
 * apart. The Studio orders history events by `Date.parse`, which keeps milliseconds only, and two events
 * with one time come out in any order ("Draft created" after "Published"); so a commit in the same
 * millisecond as the last, or while the system clock is behind it, takes the last time plus 1 ms. It
 * catches up with the wall clock as soon as commits are further apart than that.
 */
export class LakeClock {
  private last: number;
  private readonly now: () => number;

  constructor(now: () => number = wallMicros) {
    this.now = now;
    this.last = -Infinity;
  }

  /** Times at or before `time` are not handed out again (a log written before a restart). */
  observe(time: string | undefined): void {
    const micros = time === undefined ? NaN : microsOf(time);
    if (micros > this.last) this.last = micros;
  }

  next(): string {
    this.last = Math.max(this.now(), this.last + MICROS_PER_MS);
    return formatMicros(this.last);
  }
}
