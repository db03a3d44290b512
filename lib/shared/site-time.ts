/**
 * The site's calendar: days as YYYY-MM-DD in the site's time zone (Site settings, default UTC), and when
 * a day begins there. A version of the policy takes effect at the start of its day in that zone.
 * Plain Intl, no I/O: the Studio (in the editor's browser), the server and the tests share it.
 */

export const DEFAULT_TIME_ZONE = 'UTC';
const DAY_MS = 86_400_000;
const QUARTER_HOUR_MS = 900_000;

/** Whether `name` is a time zone this runtime knows (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== 'string' || name === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zone to use for `name`: itself when valid, else UTC (a broken setting never stops a page). */
export const timeZoneOf = (name: unknown): string => (isTimeZone(name) ? name : DEFAULT_TIME_ZONE);

const parts = (instant: number, timeZone: string) => {
  const fields = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(fields.find((part) => part.type === type)!.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
};

/** The day `instant` falls on in `timeZone`, as YYYY-MM-DD. */
export function dayIn(instant: number, timeZone: string): string {
  const { year, month, day } = parts(instant, timeZone);
  return [year, month, day].map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0')).join('-');
}

/** How far `timeZone`'s clock is ahead of UTC at `instant`, in ms (whole seconds; minutes in practice). */
function offsetAt(instant: number, timeZone: string): number {
  const { year, month, day, hour, minute, second } = parts(instant, timeZone);
  return Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant `date` begins in `timeZone` (epoch ms). Midnight as written, moved by the zone's offset; a
 * second pass takes the offset in force at that instant, so a daylight-saving change that day counts.
 */
export function startOfDay(date: string, timeZone: string): number {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const first = midnight - offsetAt(midnight, timeZone);
  let start = midnight - offsetAt(first, timeZone);
  // Where the clocks jump over midnight, the day begins at the first quarter hour that exists.
  while (dayIn(start, timeZone) < date) start += QUARTER_HOUR_MS;
  return start;
}

/** `date` moved by `days` calendar days. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
