#!/usr/bin/env node
/**
 * npm run trace:lcp -- URL... — what Lighthouse's LCP of a page is made of, from one run's trace (the
 * site must be running, e.g. npm start). For each URL: the simulated and the observed (unthrottled) LCP,
 * then each request with when it ended and when its script first ran, against the observed paint.
 *
 * Lighthouse 13's simulated LCP keeps every request that ended before the observed paint, unless its
 * script first ran after the paint (FirstContentfulPaint.getRenderBlockingNodeData in
 * @paulirish/trace_engine's lantern), and then replays them on slow 4G. `counted` marks those
 * requests: a page that paints after its async scripts arrive has them all in its LCP.
 * THROTTLING=devtools throttles the load itself instead (no request is then "counted" by a simulation).
 */
import { launchLighthouseBrowser, lighthouseRun, type Throttling } from '../testkit/lighthouse.ts';
import { table } from './lib/report.ts';

type TraceEvent = { name: string; ts: number; args?: { data?: { url?: string; isLoadingMainFrame?: boolean } } };
type Request = { url: string; resourceType?: string; networkRequestTime?: number; networkEndTime?: number; transferSize?: number };

const urls = process.argv.slice(2);
if (urls.length === 0) throw new Error('usage: npm run trace:lcp -- http://127.0.0.1:3000/ [more URLs]');
const throttling: Throttling = process.env.THROTTLING === 'devtools' ? 'devtools' : 'simulate';
const ms = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0));

const chrome = await launchLighthouseBrowser();
try {
  for (const url of urls) {
    const { lhr, artifacts } = await lighthouseRun(url, chrome.port, ['performance'], throttling);
    const events = (artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace.traceEvents;
    const start = events.find((event) => event.name === 'navigationStart' && event.args?.data?.isLoadingMainFrame)?.ts ?? 0;
    // When each script URL was first evaluated, in ms since the navigation started.
    const firstRun = new Map<string, number>();
    for (const event of events) {
      const script = event.name === 'EvaluateScript' ? event.args?.data?.url : undefined;
      if (script && !firstRun.has(script)) firstRun.set(script, (event.ts - start) / 1000);
    }
    const metrics = (lhr.audits.metrics?.details as { items?: { observedLargestContentfulPaint?: number }[] } | undefined)?.items?.[0];
    const paint = metrics?.observedLargestContentfulPaint ?? 0;
    const requests = (lhr.audits['network-requests']?.details as { items?: Request[] } | undefined)?.items ?? [];
    const rows = requests.map((request) => {
      const ran = firstRun.get(request.url);
      const counted = (request.networkEndTime ?? Infinity) <= paint && !(ran !== undefined && ran > paint);
      const where = new URL(request.url);
      return [
        where.pathname + where.search,
        request.resourceType ?? '',
        ms(request.networkEndTime),
        ms(ran),
        `${request.transferSize ?? 0}`,
        counted ? 'counted' : '',
      ];
    });
    const lcp = lhr.audits['largest-contentful-paint']?.numericValue;
    process.stdout.write(`\n${url} (${throttling}): LCP ${ms(lcp)} ms, observed paint ${ms(paint)} ms\n`);
    process.stdout.write(`${table([['request', 'type', 'ended (ms)', 'script first ran (ms)', 'bytes', ''], ...rows])}\n`);
  }
} finally {
  chrome.kill();
}
