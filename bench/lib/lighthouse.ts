/**
 * Lighthouse (its default config: mobile, simulated throttling; plus one run per page with the same
 * throttling applied to the load, for LCP) in the browser testkit/lighthouse.ts launches.
 * Used by the bench's `site` and `lighthouse` measurements, which report the same rows.
 */
import { launchLighthouseBrowser, lighthouseReport } from '../../testkit/lighthouse.ts';
import { PUBLIC_PATHS, ROUTES, type PublicPath } from '../../lib/public-pages.ts';
import { median, round, type Row } from '../report.ts';

/**
 * Each page scores at least the one-heading page's score minus `belowHeading`, `/`'s LCP is no later
 * than the plain page of the same bytes (issue 22), and each page's LCP with the throttling applied is
 * at most `appliedLcpRatio` times that page's (issue 35), all in the same run.
 */
export const LIGHTHOUSE_TARGETS = { belowHeading: 1, appliedLcpRatio: 1.1 } as const;

type Lhr = Awaited<ReturnType<typeof lighthouseReport>>;

/** The paint of the largest element as it happened in this browser (ms), unthrottled; null when missing. */
export const observedLcpMs = (lhr: Lhr) =>
  (lhr.audits.metrics?.details as { items?: { observedLargestContentfulPaint?: number }[] } | undefined)?.items?.[0]
    ?.observedLargestContentfulPaint ?? null;

/** One run's figures: the performance score and the metrics that make most of it. */
async function runOnce(url: string, port: number) {
  const lhr = await lighthouseReport(url, port, ['performance']);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? null;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbtMs: metric('total-blocking-time'),
    lcpMs: metric('largest-contentful-paint'),
    // Layout shift over the load: 0 when the first paint already has the page's final styles.
    cls: metric('cumulative-layout-shift'),
    // The unthrottled paint in this browser. Lighthouse's simulated LCP counts every request that ended
    // (and every script that ran) before it, so a late observed paint pulls the page's scripts into LCP.
    observedLcpMs: observedLcpMs(lhr),
    // The same default config with the throttling applied to the load itself: the paint a visitor on
    // that network and CPU sees, which no race between the paint and the async scripts decides.
    appliedLcpMs: (await lighthouseReport(url, port, ['performance'], 'devtools')).audits['largest-contentful-paint']?.numericValue ?? null,
    // Lighthouse's own CPU benchmark of this machine at the time (higher is faster).
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}
type Run = Awaited<ReturnType<typeof runOnce>>;
export type Figures = Record<keyof Run, number | null>;

/** Each URL `runs` times in one browser, the URLs in alternating rounds; the median of each figure per URL. */
async function lighthouseMedians<Label extends string>(urls: Record<Label, string>, runs: number) {
  const labels = Object.keys(urls) as Label[];
  const all = Object.fromEntries(labels.map((label) => [label, [] as Run[]])) as Record<Label, Run[]>;
  const chrome = await launchLighthouseBrowser();
  try {
    for (let run = 0; run < runs; run++) for (const label of labels) all[label].push(await runOnce(urls[label], chrome.port));
  } finally {
    chrome.kill();
  }
  const medians = (list: Run[]) =>
    Object.fromEntries(
      (Object.keys(list[0]!) as (keyof Run)[]).map((key) => [key, round(median(list.map((one) => one[key])), key === 'cls' ? 3 : 0)]),
    ) as Figures;
  return Object.fromEntries(labels.map((label) => [label, medians(all[label])])) as Record<Label, Figures>;
}

/** The fixture's pages (bench/fixture) the public pages are measured beside, on the fixture's server. */
const fixturePages = (origin: string) => ({
  heading: `${origin}/heading`,
  sameBytes: `${origin}/same-bytes`,
  sameBytesStyled: `${origin}/same-bytes-styled`,
});
type LighthousePage = PublicPath | keyof ReturnType<typeof fixturePages>;
export type LighthouseResults = Record<LighthousePage, Figures>;

/** The public pages on `siteOrigin` and the fixture's pages on `fixtureOrigin`, `runs` times each: the medians. */
export function measureLighthouse(siteOrigin: string, fixtureOrigin: string, runs: number): Promise<LighthouseResults> {
  const site = Object.fromEntries(PUBLIC_PATHS.map((page) => [page, `${siteOrigin}${page}`])) as Record<PublicPath, string>;
  return lighthouseMedians({ ...site, ...fixturePages(fixtureOrigin) }, runs);
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

/** A page's LCP with the throttling applied, its simulated LCP beside it, against the same-bytes page's. */
function appliedLcpRow(results: LighthouseResults, page: PublicPath): Row {
  const { appliedLcpMs, lcpMs } = results[page];
  const sameBytes = results.sameBytes.appliedLcpMs;
  const limit = sameBytes === null ? null : Math.round(sameBytes * LIGHTHOUSE_TARGETS.appliedLcpRatio);
  return {
    measure: `  Lighthouse ${page} LCP, applied throttling`,
    client: CLIENT,
    result: `${ms(appliedLcpMs)} (simulated ${ms(lcpMs)})`,
    target: `<= ${LIGHTHOUSE_TARGETS.appliedLcpRatio} x same bytes, ${ms(limit)}`,
    met: appliedLcpMs !== null && limit !== null && appliedLcpMs <= limit,
  };
}

/** Each public page against the fixture's pages of the same run. */
export function lighthouseRows(results: LighthouseResults): Row[] {
  const floor = (results.heading.performance ?? 0) - LIGHTHOUSE_TARGETS.belowHeading;
  const reported = (measure: string, figured: Figures): Row => ({ measure, client: CLIENT, result: figures(figured) });
  return [
    ...PUBLIC_PATHS.map((page) => ({
      ...reported(`  Lighthouse ${page}`, results[page]),
      target: `score >= ${floor}`,
      met: (results[page].performance ?? 0) >= floor,
    })),
    lcpRow(results),
    ...PUBLIC_PATHS.map((page) => appliedLcpRow(results, page)),
    reported('  Lighthouse, the one-heading Next page', results.heading),
    // What a Next page of the site's bytes, with none of its components, scores at the same time.
    reported('  Lighthouse, the plain Next page of the same bytes', results.sameBytes),
    // The same page with the site's stylesheet: what that one render-blocking request costs on its own.
    reported("  Lighthouse, the same with the site's stylesheet", results.sameBytesStyled),
  ];
}
