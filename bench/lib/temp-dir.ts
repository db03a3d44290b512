/** The scratch folder of one measurement: bench/.tmp/<name>-<pid>, removed at the end and on Ctrl-C. */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

import { APP_ROOT } from '../../testkit/paths.ts';
import { stopOnSignals } from '../../testkit/processes.ts';

/** Calls `run` with a fresh folder under bench/.tmp, removed when it ends, whether it throws or not. */
export async function withTempDir<T>(name: string, run: (dir: string) => Promise<T>): Promise<T> {
  const dir = path.join(APP_ROOT, 'bench', '.tmp', `${name}-${process.pid}`);
  const remove = () => rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  stopOnSignals(remove);
  try {
    return await run(dir);
  } finally {
    await remove();
  }
}
