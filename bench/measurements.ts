/**
 * Every measurement `npm run bench` knows: its name, what it measures, its targets and the client that
 * measures it (what `npm run bench -- --help` lists), and the module that runs it. Each module exports
 * `measure(args)`, which returns a Report (report.ts). `standard` ones run when no name is given.
 */
import type { Report } from './report.ts';

export type Measurement = {
  name: string;
  what: string;
  target: string;
  client: string;
  standard?: boolean;
  load: () => Promise<{ measure: (args: string[]) => Promise<Report> }>;
};

export const MEASUREMENTS: Measurement[] = [
  {
    name: 'site',
    standard: true,
    what: "the deployed shape (serve:prod: the server behind nginx's cache) against nginx serving the same page as files, in three encodings; support submissions through the cache against the bare server; publish → visible through the cache, of the default language's text and of a translation, with ten languages; /studio first byte; the bare server against a plain Next page of the same bytes; a made-up path against / on the bare server, with a Host it does not listen on; Lighthouse of each page against the one-heading page",
    target:
      'cache/files >= 0.8x; submissions cache/bare >= 0.9x, none lost; publish worst <= 2 s each; /studio first byte <= 100 ms; bare/same bytes >= 0.95x; made-up path// >= 0.9x, every answer 404; Lighthouse as `lighthouse`',
    client: 'wrk (page views), autocannon (submissions), Node fetch and http, Lighthouse in Chromium',
    load: () => import('./site/measure.ts'),
  },
  {
    name: 'pages',
    what: 'a clean next build (wall time, peak memory of the process tree), and the gzip JS/CSS/HTML a first load of each page takes beside the empty Next page of bench/fixture (re-records bench/fixture-floor.json; --fixture-only: the floor alone)',
    target: "/'s JS <= the empty page's + 20 KB",
    client: 'the build timed, its memory from /proc; Node http (page-bytes.ts, as the budget test counts)',
    load: () => import('./pages.ts'),
  },
  {
    name: 'lighthouse',
    what: 'Lighthouse (mobile) of each public page against the one-heading page and the plain page of the same bytes: score, TBT, LCP, observed LCP, LCP and TBT with the throttling applied, and what each TBT is made of',
    target:
      "each page's score >= the one-heading page's - 1; TBT <= the same-bytes page's + 50 ms; simulated and applied LCP <= 1.1x the same-bytes page's; /'s LCP <= the same-bytes page's",
    client: 'Lighthouse in Chromium',
    load: () => import('./lighthouse.ts'),
  },
  {
    name: 'lcp',
    what: 'what one Lighthouse run of a running page (`-- lcp URL...`) is made of: simulated and observed LCP, each request and when its script first ran, the main-thread tasks long enough to block and what took their time',
    target: 'none (a trace, for reading)',
    client: 'Lighthouse in Chromium',
    load: () => import('./lcp.ts'),
  },
  {
    name: 'publish',
    what: "dataset edits posted as signed webhooks through nginx's cache, until a page load shows each (INSTANCES=n: until each of n instances sharing Redis and nginx show it)",
    target: 'worst <= 2 s',
    client: 'Node fetch',
    load: () => import('./publish.ts'),
  },
  {
    name: 'policy-switch',
    what: 'a version of the policy announced ahead, until /privacy shows it once its day begins, with no request but the page views: a server whose clock reaches the day seconds after it starts (libfaketime), on the embedded default and on the hosted build',
    target: 'worst <= 2 s on the embedded default',
    client: 'Node fetch, every 50 ms',
    load: () => import('./policy-switch.ts'),
  },
  {
    name: 'shared-cache',
    what: 'publish → visible on two instances sharing Redis',
    target: 'worst <= 2 s',
    client: 'Node fetch',
    load: () => import('./shared-cache.ts'),
  },
  {
    name: 'hosted',
    what: 'on the hosted build against the local lake playing Sanity: publish → an open tab shows it on reload, and draft edit → the open preview shows it without a reload',
    target: 'worst <= 2 s each',
    client: 'Chromium via Playwright',
    load: () => import('./hosted.ts'),
  },
  {
    name: 'studio',
    what: 'the real Studio on the embedded default: load cold and warm, edit → preview, first edit → preview as Presentation opens, publish → public page, history → revisions, revert → draft; the JavaScript of a cold load',
    target: 'warm load worst <= 5 s; every other row worst <= 2 s',
    client: 'Chromium via Playwright (publish: Node fetch reads the page)',
    load: () => import('./studio/measure.ts'),
  },
  {
    name: 'stack',
    what: "the serve:prod stack's memory: the server idle, after page views, submissions and publishes, its peak, and nginx's",
    target: 'none (reported for sizing)',
    client: 'autocannon and Node fetch make the load; /proc gives the memory',
    load: () => import('./stack.ts'),
  },
  {
    name: 'durability',
    what: 'submissions per second with STORE_FSYNC on and off, through the site and against the store alone, and the first write after a start',
    target: 'none (reported)',
    client: 'Node http (the form posted as a browser without JavaScript, through the site), PGlite in-process (the store alone)',
    load: () => import('./durability.ts'),
  },
  {
    name: 'pglite-threads',
    what: "V8's abort under PGlite in two threads at once (nodejs/node#64500), PGlite as the app takes it (lib/store/pglite-core.mjs) against the package's: the wasm-to-JS wrappers V8 compiles (every abort here freed one), then processes aborted of CHURN_RUNS",
    target: "the app's way: 0 wrappers compiled",
    client: "child Node processes (PGlite in-memory in the main thread and a worker thread); V8's --print-wasm-stub-code",
    load: () => import('./pglite-threads.ts'),
  },
  {
    name: 'quotas',
    what: "what the database's quotas cost: inserts per second with and without the quota trigger, against the store, through PostgREST with supabase-js, and through the site",
    target: 'none (reported)',
    client: 'direct calls, supabase-js, autocannon',
    load: () => import('./quotas/measure.ts'),
  },
  {
    name: 'hostile',
    what: 'hostile traffic against the build: 300 MB bodies, replayed and stale webhooks, 1,000 random /studio paths, security headers on refusals, crafted action calls, invisible characters',
    target: 'every probe refused or answered as designed',
    client: 'Node http and fetch',
    load: () => import('./hostile/measure.ts'),
  },
  {
    name: 'notices',
    what: "a material version of the privacy policy announced to 10,000 confirmed subscribers (NOTICES_SUBSCRIBERS), the notices sent by two instances (NOTICES_INSTANCES) of the build behind nginx, sharing the Supabase stand-in over Debian's PostgreSQL, to the test SMTP server: time to the last one accepted, rate, each instance's share",
    target: 'every subscriber exactly one notice',
    client: 'smtp-server (testkit/smtp.ts) counting what it accepted',
    load: () => import('./notices.ts'),
  },
  {
    name: 'load',
    what: '20 and 50 concurrent clients for 60 s on / and the support form, then faults: the hosted store down and back, PostgREST frozen, the server SIGKILLed and restarted',
    target: 'lost = 0 and doubled = 0 in every phase',
    client: 'autocannon and Node fetch',
    load: () => import('./load/measure.ts'),
  },
  {
    name: 'back-office',
    standard: true,
    what: "the back office at scale: OFFICE_ROWS (100,000) support requests and as many confirmed subscribers, each told of one version, on PGlite and on PostgreSQL through PostgREST, through the built app's API: the first page of requests, a deep keyset page, a filtered page, a search by an address's beginning, a subscriber looked up, and erasures of people with a subscription, a notice and a request",
    target: 'each page and search p95 <= 200 ms; erase worst <= 1 s',
    client: "Node fetch to the app's API from loopback (the HTTP round trip through the app, and PostgREST on the hosted store)",
    load: () => import('./back-office.ts'),
  },
];
