/**
 * `shared-cache` — publish → visible on two instances sharing Redis (lib/cache/): two `next start`
 * servers of the current build (npm run build first) with one redis-server and one copy of the seed
 * dataset; PUBLISH_EDITS=20 publishes sent to the first, each timed from before the webhook until both
 * serve it.
 */
import { stopOnSignals } from '../testkit/processes.ts';
import { measurePublishes } from '../testkit/publish-timing.ts';
import { startSharedCachePair } from '../testkit/shared-cache-pair.ts';
import { publishRow } from './lib/publish-row.ts';
import { envInt, type Report } from './report.ts';

const log = (line: string) => process.stderr.write(`[shared-cache] ${line}\n`);

export async function measure(): Promise<Report> {
  const edits = envInt('PUBLISH_EDITS', 20);
  const pair = await startSharedCachePair();
  stopOnSignals(() => pair.stop());
  try {
    const [a, b] = pair.instances;
    const result = await measurePublishes(
      { contentFile: pair.contentFile, secret: pair.secret, publishTo: a.origin, watch: [a.origin, b.origin] },
      { count: edits, log },
    );
    return { rows: [publishRow('publish → visible on both instances', result, edits)], details: { edits, result } };
  } finally {
    await pair.stop();
  }
}
