/** The settings of the `site` measurement (BENCH_* in the environment) and the targets it holds the site to. */
import { envInt } from '../report.ts';
import { LIGHTHOUSE_TARGETS } from '../lib/lighthouse.ts';
import { PUBLISH_WORST_MS } from '../lib/publish-row.ts';
import { BROWSER_ACCEPT_ENCODING } from '../lib/wrk.ts';

export const TARGETS = {
  cacheOverFile: 0.8,
  publishWorstMs: PUBLISH_WORST_MS,
  submissionsCacheOverBare: 0.9,
  lost: 0,
  bareOverSameBytes: 0.95,
  lighthouseBelowHeading: LIGHTHOUSE_TARGETS.belowHeading,
  studioFirstMs: 100,
  madeUpOverPage: 0.9,
} as const;

export const CONFIG = {
  rounds: envInt('BENCH_ROUNDS', 3),
  pageSeconds: envInt('BENCH_SECONDS', 5),
  warmupSeconds: 2,
  wrkThreads: 2,
  wrkConnections: envInt('BENCH_WRK_CONNECTIONS', 64),
  submitSeconds: envInt('BENCH_SUBMIT_SECONDS', 8),
  connections: envInt('BENCH_CONNECTIONS', 50),
  edits: envInt('BENCH_EDITS', 20),
  studioLoads: envInt('BENCH_STUDIO_LOADS', 10),
  lighthouseRuns: envInt('BENCH_LH_RUNS', 5),
};

/** Listed before the publishes, beside the seed's two and the bench's Arabic: ten languages, whose pages a publish may change. */
export const MORE_LANGUAGES = ['fr', 'de', 'it', 'pt', 'nl', 'pl', 'ja'] as const;
export const LANGUAGE_COUNT = 3 + MORE_LANGUAGES.length;

/** A Host the server does not listen on, and a path no page has (a scanner's favourite), for the made-up path rows. */
export const MADE_UP = { host: 'example.org', path: '/wp-login.php' } as const;

/** The subjects of the run's submissions start so, which is how the stores are counted afterwards. */
export const SUBJECT_PREFIX = 'bench ';

/** The Accept-Encoding of each page-view comparison: as Chrome asks (brotli), then gzip and none. */
export const ENCODINGS = { br: BROWSER_ACCEPT_ENCODING, gzip: 'gzip', identity: 'identity' } as const;
export type Encoding = keyof typeof ENCODINGS;

/** The clients, as the rows name them. */
export const WRK = `wrk -t${CONFIG.wrkThreads} -c${CONFIG.wrkConnections}`;
export const AUTOCANNON = `autocannon -c${CONFIG.connections}`;

export const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
