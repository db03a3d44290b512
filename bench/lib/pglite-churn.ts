/**
 * One child process of `npm run bench -- pglite-threads`: PGlite opened, used and closed CHURN_CYCLES
 * times in the main thread and, at the same time, in a worker thread, as the server's store thread runs
 * beside its main thread, and as the unit tests open stores in both. CHURN_PGLITE=app takes PGlite from
 * lib/store/pglite-core.mjs (with the app's V8 setting), =bare straight from the package.
 * Prints `ok <ms>` and exits 0; V8's abort, if it comes, kills the process with a signal.
 */
import { isMainThread, Worker } from 'node:worker_threads';

const cycles = Number(process.env.CHURN_CYCLES ?? 10);
const { PGlite } =
  process.env.CHURN_PGLITE === 'app' ? await import('../../lib/store/pglite-core.mjs') : await import('@electric-sql/pglite');

async function churn() {
  for (let cycle = 0; cycle < cycles; cycle++) {
    const db = await PGlite.create();
    await db.exec('create table t (n int); insert into t select generate_series(1, 1000); select sum(n) from t;');
    await db.close();
  }
}

if (isMainThread) {
  const started = performance.now();
  const worker = new Worker(new URL(import.meta.url));
  const workerDone = new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject));
  await Promise.all([churn(), workerDone]);
  console.log(`ok ${Math.round(performance.now() - started)}`);
} else {
  await churn();
}
