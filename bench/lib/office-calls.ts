/**
 * The back office's API as the bench calls it: a POST of JSON to one endpoint of a running app, timed from
 * the request to the last byte of its answer (the HTTP round trip through the app included), as the
 * Studio's tool would see it. From this machine, directly, with no token: what the embedded rule admits,
 * and what a hosted store admits too when no Sanity project is configured (lib/back-office/access.ts).
 */
import { officePath, type OfficeEndpoint, type Page } from '../../lib/shared/back-office.ts';
import { median, percentile } from '../../testkit/stats.ts';

export type Timed<T> = { value: T; ms: number };

/** One call of `endpoint` with `body`, timed; throws on any answer but 200. */
export async function officeCall<T>(origin: string, endpoint: OfficeEndpoint, body: unknown): Promise<Timed<T>> {
  const started = performance.now();
  const response = await fetch(`${origin}${officePath(endpoint)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${endpoint} answered ${response.status}: ${text.slice(0, 300)}`);
  return { value: JSON.parse(text) as T, ms };
}

/** A page of requests: the body requests/list takes. */
export const requestsBody = (filter: Record<string, string>, cursor: string | null, limit = 50) => ({ filter, cursor, limit });

/** The cursor of the page after `pages` pages of `filter` from the first (each answer's `next`). */
export async function cursorAfter(origin: string, pages: number, filter: Record<string, string> = {}): Promise<string> {
  let cursor: string | null = null;
  for (let n = 0; n < pages; n++) {
    const page: Timed<Page<unknown>> = await officeCall<Page<unknown>>(origin, 'requests/list', requestsBody(filter, cursor));
    if (!page.value.next) throw new Error(`the requests ended after ${n + 1} pages, before ${pages}`);
    cursor = page.value.next;
  }
  return cursor!;
}

export type Sampled = { samples: number[]; median: number; p95: number; max: number };

/** `call` run `warmup` times unmeasured (the app's and the store's caches, the connection), then `samples` times. */
export async function sampled(call: () => Promise<Timed<unknown>>, samples: number, warmup: number): Promise<Sampled> {
  for (let n = 0; n < warmup; n++) await call();
  const times: number[] = [];
  for (let n = 0; n < samples; n++) times.push((await call()).ms);
  return summary(times);
}

/** Median, p95 (nearest rank) and worst of `times`, in ms. */
export function summary(times: number[]): Sampled {
  const sorted = [...times].sort((a, b) => a - b);
  return { samples: times, median: median(sorted)!, p95: percentile(sorted, 95)!, max: sorted.at(-1)! };
}
