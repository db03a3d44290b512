/**
 * Lighthouse (its default config: mobile, simulated throttling) as a node library, in Debian's chromium
 * launched by chrome-launcher (CHROMIUM_PATH, default /usr/bin/chromium; never a downloaded browser).
 * Used by npm run bench and npm run measure:lighthouse, which print the same rows.
 */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

import { PUBLIC_PATHS, ROUTES, type PublicPath } from '../../lib/public-pages.ts';
import { median, round, verdict } from './report.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

/**
 * Each page scores at least the one-heading page's score minus `belowHeading`, and `/`'s LCP is no
 * later than the plain page of the same bytes (issue 22), both in the same run.
 */
export const LIGHTHOUSE_TARGETS = { belowHeading: 1 } as const;

/** One run's figures: the performance score and the metrics that make most of it. */
async function runOnce(url: string, port: number) {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  const lhr = result?.lhr;
  if (!lhr || lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr?.runtimeError?.message ?? 'no result'}`);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? null;
  const observed = (lhr.audits.metrics?.details as { items?: { observedLargestContentfulPaint?: number }[] } | undefined)?.items?.[0];
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbtMs: metric('total-blocking-time'),
    lcpMs: metric('largest-contentful-paint'),
    // The unthrottled paint in this browser. Lighthouse's simulated LCP counts every request that ended
    // (and every script that ran) before it, so a late observed paint pulls the page's scripts into LCP.
    observedLcpMs: observed?.observedLargestContentfulPaint ?? null,
    // Lighthouse's own CPU benchmark of this machine at the time (higher is faster).
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}
type Run = Awaited<ReturnType<typeof runOnce>>;
export type Figures = Record<keyof Run, number | null>;

/** Each URL `runs` times in one browser, the URLs in alternating rounds; the median of each figure per URL. */
export async function lighthouseMedians<Label extends string>(urls: Record<Label, string>, runs: number) {
  const labels = Object.keys(urls) as Label[];
  const all = Object.fromEntries(labels.map((label) => [label, [] as Run[]])) as Record<Label, Run[]>;
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  try {
    for (let run = 0; run < runs; run++) for (const label of labels) all[label].push(await runOnce(urls[label], chrome.port));
  } finally {
    chrome.kill();
  }
  const medians = (list: Run[]) =>
    Object.fromEntries(
      (Object.keys(list[0]!) as (keyof Run)[]).map((key) => [key, round(median(list.map((one) => one[key])), 0)]),
    ) as Figures;
  return Object.fromEntries(labels.map((label) => [label, medians(all[label])])) as Record<Label, Figures>;
}

export type LighthouseResults = Record<PublicPath | 'heading' | 'sameBytes', Figures>;

const ms = (value: number | null) => (value == null ? 'n/a' : `${value} ms`);
const figures = ({ performance, tbtMs, lcpMs, observedLcpMs }: Figures) =>
  `${performance} (TBT ${ms(tbtMs)}, LCP ${ms(lcpMs)}; observed LCP ${ms(observedLcpMs)})`;

/** Table rows (measure, result, target, verdict): each public page against the fixture's pages of the same run. */
export function lighthouseRows(results: LighthouseResults) {
  const floor = (results.heading.performance ?? 0) - LIGHTHOUSE_TARGETS.belowHeading;
  const home = results[ROUTES.home].lcpMs;
  const sameBytes = results.sameBytes.lcpMs;
  return [
    ...PUBLIC_PATHS.map((page) => [
      `  Lighthouse ${page}`,
      figures(results[page]),
      `score >= ${floor}`,
      verdict((results[page].performance ?? 0) >= floor),
    ]),
    [
      `  Lighthouse ${ROUTES.home} LCP`,
      ms(home),
      `<= same bytes, ${ms(sameBytes)}`,
      verdict(home !== null && sameBytes !== null && home <= sameBytes),
    ],
    ['  Lighthouse, the one-heading Next page', figures(results.heading), '', ''],
    // What a Next page of the site's bytes, with none of its components, scores at the same time.
    ['  Lighthouse, the plain Next page of the same bytes', figures(results.sameBytes), '', ''],
  ];
}
