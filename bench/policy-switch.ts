/**
 * `policy-switch` — how late a version announced ahead takes effect, on both content paths: a
 * dataset whose policy is announced for tomorrow (site time zone UTC), served by a server whose clock
 * reaches tomorrow SWITCH_LEAD_MS after its start (testkit/fake-clock.ts), polled every 50 ms until
 * /privacy shows the new version. Late: from the moment the day begins to the first answer that shows it.
 * The embedded default's server reads the file itself; the hosted build (.next-hosted, `npm test -- build`)
 * reads the local lake playing Sanity's API. SWITCH_RUNS=3 of each; target on the embedded default, worst <= 2 s.
 */
import path from 'node:path';

import { recordPublish } from '../lib/policy/policy-record.ts';
import { addDays, dayIn, startOfDay } from '../lib/shared/site-time.ts';
import { startAppServer, type AppServer } from '../testkit/app-server.ts';
import { readDataset, seedCopy, writeDataset, type Doc } from '../testkit/dataset.ts';
import { clockAhead, offsetToReach } from '../testkit/fake-clock.ts';
import { HOSTED_DIST_DIR, hostedEnv, startHostedLake } from '../testkit/hosted.ts';
import { preparedDataDir } from '../testkit/store.ts';
import { withTempDir } from './lib/temp-dir.ts';
import { envInt, timesRow, type Report } from './report.ts';

const TARGET_WORST_MS = 2000;
/** From the server's launch to the day it waits for: a start takes 5 to 15 s here. */
const SWITCH_LEAD_MS = 25_000;
const POLL_MS = 50;
const CLIENT = 'Node fetch, every 50 ms';
const log = (line: string) => process.stderr.write(`[policy-switch] ${line}\n`);

/** The seed with the policy announced for `day`: the policy document and its version in the record, as a publish writes them. */
async function announced(file: string, day: string, marker: string): Promise<void> {
  const documents = await readDataset(file);
  const policy = documents.find((doc) => doc._id === 'privacyPolicy')!;
  const sections = structuredClone(policy.sections) as { body: { children: { text: string }[] }[] }[];
  sections[0]!.body[0]!.children[0]!.text += ` ${marker}`;
  const next: Doc = { ...policy, lastUpdated: day, sections };
  const version = recordPublish([], next, new Date().toISOString())!;
  await writeDataset([...documents.map((doc) => (doc._id === 'privacyPolicy' ? next : doc)), version], file);
}

/** One switch: the server launched with its clock SWITCH_LEAD_MS before `day` begins; ms from then to the first answer showing `marker`. */
async function lateness(start: (clock: Record<string, string>) => Promise<AppServer>, day: string, marker: string): Promise<number> {
  const { offsetMs, realAt } = offsetToReach(startOfDay(day, 'UTC'), SWITCH_LEAD_MS);
  const server = await start(clockAhead(offsetMs));
  try {
    if (Date.now() > realAt) throw new Error('the server started after the day began: raise SWITCH_LEAD_MS');
    for (;;) {
      const shows = (await (await fetch(`${server.origin}/privacy`)).text()).includes(marker);
      // The answer's time, not the question's: a request sent just before the day began may be rendered after.
      const answered = Date.now();
      if (shows && answered < realAt) throw new Error(`the new version showed ${realAt - answered} ms before its day`);
      if (shows) return answered - realAt;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await server.stop();
  }
}

export async function measure(): Promise<Report> {
  const runs = envInt('SWITCH_RUNS', 3);
  const day = addDays(dayIn(Date.now(), 'UTC'), 1);
  const marker = `In effect from ${day}.`;
  const times = await withTempDir('policy-switch', async (dir) => {
    const contentFile = await seedCopy(dir);
    await announced(contentFile, day, marker);
    const embedded: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const dataDir = await preparedDataDir(path.join(dir, `data-${run}`));
      embedded.push(await lateness((clock) => startAppServer({ DATA_DIR: dataDir, CONTENT_FILE: contentFile, ...clock }), day, marker));
      log(`embedded default, run ${run + 1}: ${embedded.at(-1)} ms`);
    }
    const lake = await startHostedLake({ file: contentFile });
    const hosted: number[] = [];
    try {
      for (let run = 0; run < runs; run += 1) {
        const env = { ...hostedEnv(), NEXT_DIST_DIR: HOSTED_DIST_DIR, DATA_DIR: await preparedDataDir(path.join(dir, `hosted-${run}`)) };
        hosted.push(await lateness((clock) => startAppServer({ ...env, ...clock }), day, marker));
        log(`hosted build, run ${run + 1}: ${hosted.at(-1)} ms`);
      }
    } finally {
      await lake.stop();
    }
    return { embedded, hosted };
  });
  return {
    rows: [
      timesRow(
        'a version announced ahead → /privacy shows it, from the start of its day (embedded default)',
        CLIENT,
        times.embedded,
        TARGET_WORST_MS,
      ),
      timesRow('the same, hosted build on the local lake playing Sanity', CLIENT, times.hosted),
    ],
    details: { runs, day, leadMs: SWITCH_LEAD_MS, times },
  };
}
