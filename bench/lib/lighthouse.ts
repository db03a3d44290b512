/**
 * Lighthouse (its default config: mobile, simulated throttling; plus one run per page with the same
 * throttling applied to the load, for LCP) in the browser testkit/lighthouse.ts launches.
 * Used by the bench's `site` and `lighthouse` measurements, which report the same rows.
 */
import { launchLighthouseBrowser, lighthouseReport } from '../../testkit/lighthouse.ts';
import { PUBLIC_PATHS, ROUTES } from '../../lib/shared/public-pages.ts';
import { ARABIC } from '../../testkit/dataset.ts';

/** The pages measured: the public pages in the default language, then one in Spanish and one right to left. */
const PAGES = [...PUBLIC_PATHS, '/es/privacy', `/${ARABIC.tag}`] as const;
type Page = (typeof PAGES)[number];
import { median, round, table, type Row } from '../report.ts';
import { blockingBreakdown, medianBreakdown, TASK_GROUPS, type Breakdown } from './main-thread.ts';

/**
 * Each page scores at least the one-heading page's score minus `belowHeading`, `/`'s LCP is no later
 * than the plain page of the same bytes, each page's LCP with the throttling applied is at
 * most `lcpRatio` times that page's, and so is its simulated LCP, and its TBT at most
 * `tbtOverSameBytesMs` over that page's, all in the same run.
 */
export const LIGHTHOUSE_TARGETS = { belowHeading: 1, lcpRatio: 1.1, tbtOverSameBytesMs: 50 } as const;

type Lhr = Awaited<ReturnType<typeof lighthouseReport>>;

/**
 * What the rows read, and no more (a run is half as long without the diagnostics' gatherers): the five
 * metrics the performance score weighs, TTI (where TBT stops counting), the observed paints, the long tasks.
 */
const SCORE_AUDITS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];
const AUDITS = [...SCORE_AUDITS, 'interactive', 'metrics', 'long-tasks'] as const;
/** The throttled load's: its LCP, and its TBT with the long tasks it is made of. */
const APPLIED_AUDITS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'interactive', 'long-tasks'] as const;

/** The paint of the largest element as it happened in this browser (ms), unthrottled; null when missing. */
export const observedLcpMs = (lhr: Lhr) =>
  (lhr.audits.metrics?.details as { items?: { observedLargestContentfulPaint?: number }[] } | undefined)?.items?.[0]
    ?.observedLargestContentfulPaint ?? null;

/**
 * One run's figures: the performance score and the metrics that make most of it, and what its TBT is made
 * of; `applied`: with a second load, throttled itself, for its LCP and for what its long tasks did (the
 * simulated run's tasks carry no time per group: Lighthouse drops their children from the simulation).
 */
async function runOnce(url: string, port: number, applied: boolean) {
  const lhr = await lighthouseReport(url, port, ['performance'], 'simulate', AUDITS);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? null;
  // The same default config with the throttling applied to the load itself: the paint a visitor on
  // that network and CPU sees, which no race between the paint and the async scripts decides.
  const throttled = applied ? await lighthouseReport(url, port, ['performance'], 'devtools', APPLIED_AUDITS) : null;
  const figures = {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbtMs: metric('total-blocking-time'),
    lcpMs: metric('largest-contentful-paint'),
    // Layout shift over the load: 0 when the first paint already has the page's final styles.
    cls: metric('cumulative-layout-shift'),
    // The unthrottled paint in this browser. Lighthouse's simulated LCP counts every request that ended
    // (and every script that ran) before it, so a late observed paint pulls the page's scripts into LCP.
    observedLcpMs: observedLcpMs(lhr),
    appliedLcpMs: throttled?.audits['largest-contentful-paint']?.numericValue ?? null,
    appliedTbtMs: throttled?.audits['total-blocking-time']?.numericValue ?? null,
    // Lighthouse's own CPU benchmark of this machine at the time (higher is faster).
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
  return { figures, blocking: { simulated: blockingBreakdown(lhr, url), applied: throttled && blockingBreakdown(throttled, url) } };
}
type Run = Awaited<ReturnType<typeof runOnce>>;
type Figure = keyof Run['figures'];
export type Figures = Record<Figure, number | null> & { blocking: { simulated: Breakdown; applied: Breakdown | null } };

/** The medians of `runs` of one page: each figure, and each cell of its TBT's breakdowns. */
function medians(runs: Run[]): Figures {
  const keys = Object.keys(runs[0]!.figures) as Figure[];
  const figures = Object.fromEntries(keys.map((key) => [key, round(median(runs.map((one) => one.figures[key])), key === 'cls' ? 3 : 0)]));
  const applied = runs.flatMap((one) => one.blocking.applied ?? []);
  return {
    ...(figures as Record<Figure, number | null>),
    blocking: {
      simulated: medianBreakdown(runs.map((one) => one.blocking.simulated)),
      applied: applied.length ? medianBreakdown(applied) : null,
    },
  };
}

/**
 * The throttled loads per page: a third of a run's time each (17 s here, against 5 s for the simulated
 * one), and their LCP varies by a few per cent where the simulated figures vary by tens.
 */
export const APPLIED_RUNS = 3;

/**
 * Each URL `runs` times in one browser, the URLs in alternating rounds; the median of each figure per URL.
 * The throttled load (for the applied LCP) in the first APPLIED_RUNS rounds, for `applied` URLs: the
 * one-heading page has no LCP target.
 */
async function lighthouseMedians<Label extends string>(urls: Record<Label, string>, runs: number, applied: (label: Label) => boolean) {
  const labels = Object.keys(urls) as Label[];
  const all = Object.fromEntries(labels.map((label) => [label, [] as Run[]])) as Record<Label, Run[]>;
  const chrome = await launchLighthouseBrowser();
  try {
    for (let run = 0; run < runs; run++)
      for (const label of labels) all[label].push(await runOnce(urls[label], chrome.port, run < APPLIED_RUNS && applied(label)));
  } finally {
    chrome.kill();
  }
  return Object.fromEntries(labels.map((label) => [label, medians(all[label])])) as Record<Label, Figures>;
}

/** The fixture's pages (bench/fixture) the public pages are measured beside, on the fixture's server. */
const fixturePages = (origin: string) => ({ heading: `${origin}/heading`, sameBytes: `${origin}/same-bytes` });
type LighthousePage = Page | keyof ReturnType<typeof fixturePages>;
export type LighthouseResults = Record<LighthousePage, Figures>;

/** The public pages on `siteOrigin` and the fixture's pages on `fixtureOrigin`, `runs` times each: the medians. */
export function measureLighthouse(siteOrigin: string, fixtureOrigin: string, runs: number): Promise<LighthouseResults> {
  const site = Object.fromEntries(PAGES.map((page) => [page, `${siteOrigin}${page}`])) as Record<Page, string>;
  return lighthouseMedians({ ...site, ...fixturePages(fixtureOrigin) }, runs, (label) => label !== 'heading');
}

/** Who measures these rows. */
const CLIENT = 'Lighthouse in Chromium';
const ms = (value: number | null) => (value == null ? 'n/a' : `${value} ms`);
const figures = ({ performance, tbtMs, lcpMs, cls, observedLcpMs, appliedLcpMs }: Figures) =>
  `${performance} (TBT ${ms(tbtMs)}, LCP ${ms(lcpMs)}, CLS ${cls ?? 'n/a'}; observed LCP ${ms(observedLcpMs)}; applied LCP ${ms(appliedLcpMs)})`;

/** `/`'s LCP (simulated or applied throttling) against the plain page of the same bytes. */
function lcpRow(results: LighthouseResults): Row {
  const home = results[ROUTES.home].lcpMs;
  const sameBytes = results.sameBytes.lcpMs;
  return {
    measure: `  Lighthouse ${ROUTES.home} LCP`,
    client: CLIENT,
    result: ms(home),
    target: `<= same bytes, ${ms(sameBytes)}`,
    met: home !== null && sameBytes !== null && home <= sameBytes,
  };
}

/** A page's TBT against the same-bytes page's plus an allowance, or an LCP against it times a ratio. */
function againstSameBytes(
  results: LighthouseResults,
  page: Page,
  figure: 'lcpMs' | 'appliedLcpMs' | 'tbtMs',
  measure: string,
  result = '',
) {
  const value = results[page][figure];
  const sameBytes = results.sameBytes[figure];
  const limit =
    sameBytes === null
      ? null
      : figure === 'tbtMs'
        ? sameBytes + LIGHTHOUSE_TARGETS.tbtOverSameBytesMs
        : Math.round(sameBytes * LIGHTHOUSE_TARGETS.lcpRatio);
  const allowance =
    figure === 'tbtMs' ? `same bytes + ${LIGHTHOUSE_TARGETS.tbtOverSameBytesMs} ms` : `${LIGHTHOUSE_TARGETS.lcpRatio} x same bytes`;
  return {
    measure: `  Lighthouse ${page} ${measure}`,
    client: CLIENT,
    result: `${ms(value)}${result}`,
    target: `<= ${allowance}, ${ms(limit)}`,
    met: value !== null && limit !== null && value <= limit,
  };
}

/** Each public page against the fixture's pages of the same run. */
export function lighthouseRows(results: LighthouseResults): Row[] {
  const floor = (results.heading.performance ?? 0) - LIGHTHOUSE_TARGETS.belowHeading;
  const reported = (measure: string, figured: Figures): Row => ({ measure, client: CLIENT, result: figures(figured) });
  return [
    ...PAGES.map((page) => ({
      ...reported(`  Lighthouse ${page}`, results[page]),
      target: `score >= ${floor}`,
      met: (results[page].performance ?? 0) >= floor,
    })),
    ...PAGES.map((page) => againstSameBytes(results, page, 'tbtMs', 'TBT')),
    ...PAGES.map((page) => againstSameBytes(results, page, 'lcpMs', 'LCP, simulated')),
    lcpRow(results),
    ...PAGES.map((page) =>
      againstSameBytes(results, page, 'appliedLcpMs', 'LCP, applied throttling', ` (simulated ${ms(results[page].lcpMs)})`),
    ),
    reported('  Lighthouse, the one-heading Next page', results.heading),
    // What a Next page of the site's bytes, with none of its components, scores at the same time.
    reported('  Lighthouse, the plain Next page of the same bytes', results.sameBytes),
  ];
}

/** A column for each owner with blocking time on some page: the document, a script by its file name, or none. */
const ownerColumns = (breakdowns: Breakdown[]) =>
  [...new Set(breakdowns.flatMap((breakdown) => Object.keys(breakdown.byOwner)))].filter((owner) =>
    breakdowns.some((breakdown) => (breakdown.byOwner[owner] ?? 0) > 0),
  );

/** The TBT of each page as its long tasks spent it: by what the main thread did (throttled load), and by whose task it was. */
export function blockingNotes(results: LighthouseResults): string[] {
  const pages = Object.keys(results) as LighthousePage[];
  const applied = pages.flatMap((page) => (results[page].blocking.applied ? [[page, results[page].blocking.applied] as const] : []));
  const owners = (list: (readonly [string, Breakdown])[]) => ownerColumns(list.map(([, breakdown]) => breakdown));
  const byOwner = (tbt: (page: LighthousePage) => number | null, list: (readonly [LighthousePage, Breakdown])[]) =>
    table([
      ['page', 'TBT', ...owners(list).map((owner) => owner.replace(/^.*\//, ''))],
      ...list.map(([page, breakdown]) => [page, tbt(page), ...owners(list).map((owner) => breakdown.byOwner[owner] ?? 0)]),
    ]);
  const simulated = pages.map((page) => [page, results[page].blocking.simulated] as const);
  return [
    `TBT of the throttled load (devtools) by what its long tasks did (ms, medians; a task's blocking part shared by its time per group):\n${table(
      [
        ['page', 'TBT', ...TASK_GROUPS],
        ...applied.map(([page, breakdown]) => [
          page,
          results[page].appliedTbtMs,
          ...TASK_GROUPS.map((group) => breakdown.byGroup[group] ?? 0),
        ]),
      ],
    )}`,
    `The same by whose task it was:\n${byOwner((page) => results[page].appliedTbtMs, applied)}`,
    `TBT as Lighthouse simulates it (the score's) by whose task it was:\n${byOwner((page) => results[page].tbtMs, simulated)}`,
  ];
}
