/**
 * `back-office` — the back office at scale: OFFICE_ROWS (default 100,000) support requests and as many
 * confirmed subscribers, each told of one version (testkit/office-rows.ts), on each store (PGlite, and
 * PostgreSQL through PostgREST), through the built app's own API (lib/shared/back-office.ts) as the
 * Studio's tool calls it: the first page of requests, a deep page (keyset, 20 pages in), a filtered page,
 * a search by an address's beginning, a subscriber looked up, and erasures of subscribers who also wrote
 * a request. OFFICE_SAMPLES (default 20) timed calls of each read after a warm-up; each erase once.
 */
import type { Erased, OfficeRequest, OfficeSubscriber, Page } from '../lib/shared/back-office.ts';
import { SUBSCRIBER_REQUEST_EVERY, subscriberAddress } from '../testkit/office-rows.ts';
import { cursorAfter, officeCall, requestsBody, sampled, summary, type Sampled, type Timed } from './lib/office-calls.ts';
import { OFFICE_STORES, withSeededApp, type OfficeStore } from './lib/office-stores.ts';
import { withTempDir } from './lib/temp-dir.ts';
import { envInt, type Report, type Row } from './report.ts';

const log = (line: string) => process.stderr.write(`[back-office ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const CLIENT = "Node fetch to the app's API, loopback";
const READ_TARGET_MS = 200;
const ERASE_TARGET_MS = 1000;
const WARMUP = 5;
const DEEP_PAGES = 20;
const ERASURES = 10;

type Measured = { measure: string; times: Sampled; targetMs: number; worstOnly?: boolean };
type StoreRun = { store: OfficeStore; seedSeconds: number; measured: Measured[]; problems: string[] };

/** The address search: a beginning that 11 requests share at 100,000 rows (req9999, req99990…req99999). */
const searchPrefix = (rows: number) => `req${Math.max(1, Math.floor(rows / 10) - 1)}`;

async function reads(origin: string, rows: number, samples: number, problems: string[]): Promise<Measured[]> {
  const list =
    (filter: Record<string, string>, cursor: string | null = null) =>
    () =>
      officeCall<Page<OfficeRequest>>(origin, 'requests/list', requestsBody(filter, cursor));
  const deep = await cursorAfter(origin, DEEP_PAGES);
  const prefix = searchPrefix(rows);
  const found = (await list({ email: prefix })()).value.rows;
  if (found.length === 0 || !found.every((row) => row.email.startsWith(prefix)))
    problems.push(`search "${prefix}" found ${found.length} rows`);
  const subscriber = subscriberAddress(Math.ceil(rows * 0.777));
  const lookup = () => officeCall<OfficeSubscriber | null>(origin, 'subscribers/find', { email: subscriber });
  if (!(await lookup()).value) problems.push(`${subscriber} was not found`);
  const read = async (measure: string, call: () => Promise<Timed<unknown>>): Promise<Measured> => ({
    measure,
    times: await sampled(call, samples, WARMUP),
    targetMs: READ_TARGET_MS,
  });
  return [
    await read('first page of requests (50)', list({})),
    await read(`page ${DEEP_PAGES + 1} of requests (keyset cursor)`, list({}, deep)),
    await read('filtered page (es, issue, new)', list({ language: 'es', type: 'issue', status: 'new' })),
    await read(`search by an address's beginning ("${prefix}", ${found.length} found)`, list({ email: prefix })),
    await read('subscriber looked up by address (logged)', lookup),
  ];
}

/** Erases subscribers n × SUBSCRIBER_REQUEST_EVERY, each with a notice and a request; the first one warms up. */
async function erasures(origin: string, rows: number, problems: string[]): Promise<Measured> {
  const people = Math.min(ERASURES + 1, Math.floor(rows / SUBSCRIBER_REQUEST_EVERY));
  if (people < 2) throw new Error(`OFFICE_ROWS must be at least ${2 * SUBSCRIBER_REQUEST_EVERY} for an erase to measure`);
  const times: number[] = [];
  for (let n = 1; n <= people; n++) {
    const email = subscriberAddress(n * SUBSCRIBER_REQUEST_EVERY);
    const { value, ms } = await officeCall<Erased | { nothingHeld: true }>(origin, 'person/erase', { email });
    const erased = 'rows' in value ? value.rows : {};
    if (erased.subscribers !== 1 || erased.requests !== 1 || erased.noticesKept !== 1)
      problems.push(`erasing ${email} removed ${JSON.stringify(value)}, not its subscription, request and notice`);
    if (n > 1) times.push(ms);
  }
  return {
    measure: `erase of a person (subscription, notice, request)`,
    times: summary(times),
    targetMs: ERASE_TARGET_MS,
    worstOnly: true,
  };
}

async function onStore(store: OfficeStore, dir: string, rows: number, samples: number): Promise<StoreRun> {
  return withSeededApp(store, dir, rows, log, async ({ origin, seedSeconds }) => {
    const problems: string[] = [];
    log(`${store}: measuring`);
    const measured = [...(await reads(origin, rows, samples, problems)), await erasures(origin, rows, problems)];
    return { store, seedSeconds, measured, problems: problems.map((problem) => `${store}: ${problem}`) };
  });
}

const ms = (value: number) => `${Math.round(value)} ms`;

function row(store: OfficeStore, { measure, times, targetMs, worstOnly }: Measured): Row {
  const worst = worstOnly ? times.max : times.p95;
  return {
    measure: `${store}: ${measure}`,
    client: CLIENT,
    result: `median ${ms(times.median)}, ${worstOnly ? '' : `p95 ${ms(times.p95)}, `}worst ${ms(times.max)} (${times.samples.length} runs)`,
    target: `${worstOnly ? 'worst' : 'p95'} <= ${targetMs} ms`,
    met: worst <= targetMs,
  };
}

export async function measure(): Promise<Report> {
  const rows = envInt('OFFICE_ROWS', 100_000);
  const samples = envInt('OFFICE_SAMPLES', 20);
  const runs = await withTempDir('back-office', async (dir) => {
    const done: StoreRun[] = [];
    for (const store of OFFICE_STORES) done.push(await onStore(store, dir, rows, samples));
    return done;
  });
  const count = rows.toLocaleString('en-US');
  return {
    rows: runs.flatMap((run) => run.measured.map((measured) => row(run.store, measured))),
    notes: [
      `${count} support requests and ${count} confirmed subscribers on each store, each subscriber told of one version (a sent notice).`,
      "Each time is one call of the app's API from this machine (Node fetch, keep-alive), from the request to the answer's last byte: the HTTP round trip through the app (next start), and on the hosted store also through PostgREST (behind the stand-in's gateway) to PostgreSQL.",
      `Reads: ${WARMUP} calls to warm up, then ${samples} timed; the lookup and the erase also write the access log, as each does. Erase: ${ERASURES} different subscribers, after one to warm up.`,
      `Seeding (not timed above): ${runs.map((run) => `${run.store} ${run.seedSeconds.toFixed(1)} s`).join(', ')}.`,
    ],
    details: { rows, samples, runs },
    problems: runs.flatMap((run) => run.problems),
  };
}
