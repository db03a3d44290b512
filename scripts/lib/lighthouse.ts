/**
 * Lighthouse performance figures for the bench: each URL several times in one browser (testkit/lighthouse.ts),
 * the median of each figure.
 */
import { launchLighthouseBrowser, lighthouseReport } from '../../testkit/lighthouse.ts';
import { median, round } from './report.ts';

/** One run's figures: the performance score and the metrics that make most of it. */
async function runOnce(url: string, port: number) {
  const lhr = await lighthouseReport(url, port, ['performance']);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? null;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbtMs: metric('total-blocking-time'),
    lcpMs: metric('largest-contentful-paint'),
    // Lighthouse's own CPU benchmark of this machine at the time (higher is faster).
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}
type Run = Awaited<ReturnType<typeof runOnce>>;

/** Each URL `runs` times in one browser; the median of each figure per URL. */
export async function lighthouseMedians<Label extends string>(urls: Record<Label, string>, runs: number) {
  const chrome = await launchLighthouseBrowser();
  try {
    const result = {} as Record<Label, Record<keyof Run, number | null>>;
    for (const [label, url] of Object.entries(urls) as [Label, string][]) {
      const all: Run[] = [];
      for (let run = 0; run < runs; run++) all.push(await runOnce(url, chrome.port));
      const pick = (key: keyof Run) => round(median(all.map((one) => one[key])), 0);
      result[label] = {
        performance: pick('performance'),
        tbtMs: pick('tbtMs'),
        lcpMs: pick('lcpMs'),
        benchmarkIndex: pick('benchmarkIndex'),
      };
    }
    return result;
  } finally {
    chrome.kill();
  }
}
