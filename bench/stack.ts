/**
 * `stack` — what the deployed shape (npm run serve:prod's stack: the standalone server behind nginx)
 * holds in memory: the standalone server's resident memory (its worker thread, where the embedded store
 * runs, included) idle after its start and after each phase of a load like the stack's smoke test, only
 * bigger, with nginx's memory (master and workers) beside it:
 *
 *   pages        GET /, /support and /privacy through nginx (its cache answers; the app refreshes them)
 *   submissions  support requests through nginx, as the page's script sends them
 *   publishes    privacy-policy edits and signed webhooks, each waited for through the cache
 *
 * Runs on a private copy of the current build (built first when missing or older than the sources, as
 * serve:prod does) in a temp dir under bench/.tmp.
 * Environment: STACK_SECONDS=10 (of page views, and of submissions), STACK_CONNECTIONS=20, STACK_PUBLISHES=10.
 */
import path from 'node:path';

import { freePort, memory, sleep, treeRss } from '../testkit/processes.ts';
import { measurePublishes } from '../testkit/publish-timing.ts';
import { startStack, type Stack } from '../testkit/stack.ts';
import { PUBLIC_PATHS } from '../lib/shared/public-pages.ts';
import { pageLoad, submissionLoad } from './lib/http-load.ts';
import { privateSite } from './lib/servers.ts';
import { withTempDir } from './lib/temp-dir.ts';
import { envInt, type Report, type Row } from './report.ts';

const log = (line: string) => process.stderr.write(`[stack] ${line}\n`);
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

type Phase = { phase: string; load: string; appRssMiB: number; appPeakMiB: number; nginxRssMiB: number; detail: string };

/** The app's and nginx's memory now, after `phase`, whose load `load` made. */
function sample(stack: Stack, phase: string, load: string, detail = ''): Phase {
  const app = memory(stack.apps[0]!.pid);
  const sampled = {
    phase,
    load,
    appRssMiB: mib(app.rssBytes),
    appPeakMiB: mib(app.peakRssBytes),
    nginxRssMiB: mib(treeRss(stack.nginx.pid!).total),
    detail,
  };
  log(`${phase}: ${JSON.stringify(sampled)}`);
  return sampled;
}

/** Idle, then page views, submissions and publishes through the stack, sampled after each. */
async function phases(dir: string, settings: { seconds: number; connections: number; edits: number }) {
  const { seconds, connections, edits } = settings;
  const site = await privateSite(dir, log);
  const env = { ...process.env, ...site.env, DATA_DIR: path.join(dir, 'data'), RATE_LIMIT_MAX: '100000000' };
  const stack = await startStack({ port: await freePort(), runDir: path.join(dir, 'run'), env, build: 'never', paths: site.paths, log });
  try {
    await sleep(5000);
    const sampled = [sample(stack, 'idle after start', 'none')];
    let views = 0;
    for (const page of PUBLIC_PATHS) views += (await pageLoad(`${stack.url}${page}`, connections, seconds / PUBLIC_PATHS.length)).ok;
    sampled.push(sample(stack, 'after page views', 'autocannon', `${views} page views through the cache (${connections} connections)`));
    const submissions = await submissionLoad(stack.url, 'stack ', connections, seconds);
    const perSecond = Math.round(submissions.ok / submissions.seconds);
    sampled.push(sample(stack, 'after submissions', 'autocannon', `${submissions.ok} accepted, ${perSecond} per second`));
    await measurePublishes(
      { contentFile: site.contentFile, secret: site.secret, publishTo: stack.url, watch: [stack.url] },
      { count: edits, log },
    );
    sampled.push(sample(stack, 'after publishes', 'Node fetch', `${edits} edits, each seen through the cache`));
    return sampled;
  } finally {
    await stack.stop();
  }
}

const phaseRow = ({ phase, load, appRssMiB, appPeakMiB, nginxRssMiB, detail }: Phase): Row => ({
  measure: `memory ${phase}`,
  client: load === 'none' ? '/proc' : `${load} (load), /proc (memory)`,
  result: `app ${appRssMiB} MiB (peak ${appPeakMiB} MiB), nginx ${nginxRssMiB} MiB${detail ? `; ${detail}` : ''}`,
});

export async function measure(): Promise<Report> {
  const settings = {
    seconds: envInt('STACK_SECONDS', 10),
    connections: envInt('STACK_CONNECTIONS', 20),
    edits: envInt('STACK_PUBLISHES', 10),
  };
  const sampled = await withTempDir('stack', (dir) => phases(dir, settings));
  return {
    rows: sampled.map(phaseRow),
    notes: [
      "app: the standalone server's resident memory (its store's worker thread included), peak: its high-water mark; nginx: master and workers.",
    ],
    details: { ...settings, phases: sampled },
  };
}
