/** The rows of the `site` measurement: the deployed shape, then the bare server. */
import type { Combined } from '../lib/http-load.ts';
import { lighthouseRows, type LighthouseResults } from '../lib/lighthouse.ts';
import { publishRow } from '../lib/publish-row.ts';
import { BROWSER_ACCEPT_ENCODING, clientBound, type WrkRun } from '../lib/wrk.ts';
import { round, type Row } from '../report.ts';
import type { StudioTimes } from './servers.ts';
import { AUTOCANNON, CONFIG, ENCODINGS, LANGUAGE_COUNT, MADE_UP, TARGETS, WRK, type Encoding } from './settings.ts';

export type Results = {
  studio: StudioTimes;
  pages: Record<Encoding, { cache: WrkRun; file: WrkRun }>;
  bare: { site: WrkRun; sameBytes: WrkRun };
  madeUp: { page: Combined; madeUp: Combined; clientShare: number };
  submissions: { cache: Combined; bare: Combined; clientShare: number };
  lighthouse: LighthouseResults;
  publish: Record<'byDefault' | 'spanish', { median: number; worst: number; missed: number }>;
  stored: { cache: number; bare: number };
};

const ms = (value: number | null | undefined) => (value == null ? 'n/a' : `${round(value)} ms`);
const percent = (share: number) => `${Math.round(share * 100)} %`;
const ratio = (a: { perSecond: number }, b: { perSecond: number }) => round(a.perSecond / b.perSecond, 2) ?? 0;

/** A wrk row: its best round, and how busy wrk's threads were (CLIENT-BOUND: wrk was the limit). */
const viewRow = (measure: string, run: WrkRun): Row => ({
  measure,
  client: WRK,
  result: `${run.perSecond} req/s, p99 ${ms(run.p99Ms)}${run.failed ? `, ${run.failed} failed` : ''}; wrk CPU ${percent(run.clientShare)}${
    clientBound(run) ? ' CLIENT-BOUND' : ''
  }`,
});

/** A ratio row: a side that wrk could not push to its limit makes the ratio say less. */
const ratioRow = (measure: string, a: WrkRun, b: WrkRun, target: number): Row => ({
  measure,
  client: WRK,
  result: `${ratio(a, b)}×${clientBound(a) || clientBound(b) ? ' (a side is client-bound)' : ''}`,
  target: `>= ${target}×`,
  met: ratio(a, b) >= target,
});

/**
 * Accepted requests without a row are lost. Rows without an accepted answer are expected up to one per
 * connection and round: the client stops counting at the end of its duration, while the requests it
 * still had open are stored by the app.
 */
function submissionRow(measure: string, side: Combined, stored: number): Row {
  const lost = Math.max(0, side.ok - stored);
  const open = Math.max(0, stored - side.ok);
  const openAllowed = CONFIG.connections * CONFIG.rounds;
  return {
    measure,
    client: AUTOCANNON,
    result: `${side.perSecond}/s; accepted ${side.ok}, stored ${stored}: lost ${lost}${open ? `, ${open} open at the end` : ''}`,
    target: `lost ${TARGETS.lost}, open <= ${openAllowed}`,
    met: lost === TARGETS.lost && open <= openAllowed,
  };
}

/** `/` through the cache against the files, per encoding; the target holds for each. */
const pageRows = (pages: Results['pages']) =>
  (Object.keys(ENCODINGS) as Encoding[]).flatMap((encoding) => {
    const { cache, file } = pages[encoding];
    const asked = `Accept-Encoding: ${ENCODINGS[encoding]}`;
    return [
      viewRow(`/ through the cache, ${asked}`, cache),
      viewRow(`/ as files compressed once (nginx), ${asked}`, file),
      ratioRow('  cache / files', cache, file, TARGETS.cacheOverFile),
    ];
  });

function submissionRows({ submissions, stored }: Results): Row[] {
  const { cache, bare, clientShare } = submissions;
  return [
    submissionRow('submissions through the cache', cache, stored.cache),
    submissionRow('submissions to the bare server', bare, stored.bare),
    {
      measure: '  cache / bare',
      client: AUTOCANNON,
      result: `${ratio(cache, bare)}×; autocannon CPU ${percent(clientShare)}${clientShare >= 0.9 ? ' CLIENT-BOUND' : ''}`,
      target: `>= ${TARGETS.submissionsCacheOverBare}×`,
      met: ratio(cache, bare) >= TARGETS.submissionsCacheOverBare,
    },
  ];
}

/**
 * `/` and a made-up path on the bare server with a Host it does not listen on: the made-up path's rate
 * against the page's, met only when every answer was the one expected (200, and 404) and none failed.
 */
function madeUpRows({ madeUp }: Results): Row[] {
  const { page, madeUp: path, clientShare } = madeUp;
  const side = (run: Combined, status: number) =>
    `${run.perSecond}/s, p99 ${ms(run.p99Ms)}; ${run.refused} not ${status}, ${run.errors} errors`;
  return [
    { measure: `bare server: /, Host: ${MADE_UP.host}`, client: AUTOCANNON, result: side(page, 200) },
    { measure: `bare server: ${MADE_UP.path} (no such page), Host: ${MADE_UP.host}`, client: AUTOCANNON, result: side(path, 404) },
    {
      measure: '  made-up path / page',
      client: AUTOCANNON,
      result: `${ratio(path, page)}×; autocannon CPU ${percent(clientShare)}${clientShare >= 0.9 ? ' CLIENT-BOUND' : ''}`,
      target: `>= ${TARGETS.madeUpOverPage}×, every answer 404`,
      met: ratio(path, page) >= TARGETS.madeUpOverPage && path.refused === 0 && path.errors === 0,
    },
  ];
}

const studioRows = ({ studio }: Results): Row[] => [
  {
    measure: '/studio first byte, first load after start',
    client: 'Node http',
    result: `${ms(studio.firstMs)} (status ${studio.status})`,
    target: `<= ${TARGETS.studioFirstMs} ms`,
    met: studio.status === 200 && studio.firstMs <= TARGETS.studioFirstMs,
  },
  { measure: `/studio first byte, later loads (median of ${CONFIG.studioLoads})`, client: 'Node http', result: ms(studio.laterMedianMs) },
];

/** The deployed shape's rows, then the bare server's. */
export const siteRows = (results: Results): Row[] => [
  ...pageRows(results.pages),
  publishRow(`publish → visible through the cache: /privacy, ${LANGUAGE_COUNT} languages`, results.publish.byDefault, CONFIG.edits),
  publishRow(`publish → visible through the cache: /es, ${LANGUAGE_COUNT} languages`, results.publish.spanish, CONFIG.edits),
  ...submissionRows(results),
  ...studioRows(results),
  viewRow(`bare server: /, Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}`, results.bare.site),
  viewRow('plain Next page of the same bytes', results.bare.sameBytes),
  ratioRow('  / / same bytes', results.bare.site, results.bare.sameBytes, TARGETS.bareOverSameBytes),
  ...madeUpRows(results),
  ...lighthouseRows(results.lighthouse),
];
