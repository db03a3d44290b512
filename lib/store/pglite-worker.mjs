// The embedded store's own thread: PGlite's WebAssembly runs here, so opening the database (seconds,
// synchronous) and each insert never hold up the server's event loop, and use the machine's other core.
// Messages: { id, table, row, clientKey } (an insert as anon) or { id, call: { role, fn, args } } (a
// function) → { id, result } or { id, error, fatal }; { type: 'close' } closes and exits.
// Once the database is open (or could not open) it posts { type: 'opened' } or { type: 'opened', error }.
import { parentPort, workerData } from 'node:worker_threads';

import { callAs } from './pglite-call.mjs';
import { insertAsAnon, openStore } from './pglite-core.mjs';

if (!parentPort) throw new Error('pglite-worker.mjs runs as a worker thread');
const port = parentPort;

const opening = openStore(workerData.dir, { fsync: workerData.fsync, quotas: workerData.quotas });
let openFailed = false;
opening.then(
  () => port.postMessage({ type: 'opened' }),
  (error) => {
    openFailed = true;
    port.postMessage({ type: 'opened', error: describe(error) });
  },
);

/** What the main thread needs to map the failure; `detail` is left out, it can quote the visitor's data. */
const describe = (error) => ({
  code: typeof error?.code === 'string' ? error.code : undefined,
  constraint: typeof error?.constraint === 'string' ? error.constraint : undefined,
  message: error instanceof Error ? error.message : String(error),
});

port.on('message', async (message) => {
  if (message.type === 'close') {
    await (await opening.catch(() => null))?.close();
    port.close();
    return;
  }
  const { id, table, row, clientKey, call } = message;
  try {
    const db = await opening;
    const result = call ? await callAs(db, call.role, call.fn, call.args) : await insertAsAnon(db, table, row, clientKey);
    port.postMessage({ id, result });
  } catch (error) {
    // A store that could not open is dropped by the main thread, so the next request tries again.
    port.postMessage({ id, error: describe(error), fatal: openFailed });
  }
});
