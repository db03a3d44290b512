#!/usr/bin/env node
/**
 * npm run measure:shared-cache — publish → visible on two instances sharing Redis (lib/cache/): two
 * `next start` servers of the current build (npm run build first) with one redis-server and one copy of
 * the seed dataset; PUBLISH_EDITS=20 publishes sent to the first, each timed from before the webhook
 * until both serve it. `--strict` exits 1 when the worst is over 2 s.
 */
import { stopOnSignals } from '../testkit/processes.ts';
import { measurePublishes } from '../testkit/publish-timing.ts';
import { startSharedCachePair } from '../testkit/shared-cache-pair.ts';
import { envInt, table, verdict } from './lib/report.ts';

const TARGET_WORST_MS = 2000;
const log = (line: string) => process.stderr.write(`[shared-cache] ${line}\n`);

const pair = await startSharedCachePair();
stopOnSignals(() => pair.stop());
try {
  const [a, b] = pair.instances;
  const result = await measurePublishes(
    { contentFile: pair.contentFile, secret: pair.secret, publishTo: a.origin, watch: [a.origin, b.origin] },
    { count: envInt('PUBLISH_EDITS', 20), log },
  );
  const met = result.missed === 0 && result.worst <= TARGET_WORST_MS;
  process.stdout.write(
    `${table([['publish → visible on both instances', `median ${result.median} ms, worst ${result.worst} ms`, `worst <= ${TARGET_WORST_MS} ms`, verdict(met)]])}\n`,
  );
  if (process.argv.includes('--strict') && !met) process.exitCode = 1;
} finally {
  await pair.stop();
}
