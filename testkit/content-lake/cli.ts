/**
 * node testkit/content-lake/cli.ts [--port 4555] [--host 127.0.0.1] [--file FILE (default: the seed)]
 *   [--token T] [--dataset production] [--project-id ID] [--origin http://localhost:3000 ...] [--http]
 *
 * Serves the dataset file as the local Content Lake playing Sanity's hosted API (server.ts) and prints its
 * origin; stops on SIGINT or SIGTERM. Over HTTPS with HTTP/2 (lake-tls.ts), as Sanity serves its API,
 * unless --http. Writes live in memory: the file is never changed. Without --origin, pages on
 * http://localhost:* and http://127.0.0.1:* may call it, as a project's development CORS origins allow.
 * Besides --token, the second editor of testkit/hosted.ts (LAKE_USERS) signs in, in a role of their own.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

import { LAKE_PORT, LAKE_TOKEN, LAKE_USERS } from '../hosted.ts';
import { lakeTls } from '../lake-tls.ts';
import { SEED_FILE } from '../paths.ts';
import { startContentLake } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: String(LAKE_PORT) },
    host: { type: 'string', default: '127.0.0.1' },
    file: { type: 'string', default: SEED_FILE },
    token: { type: 'string', default: LAKE_TOKEN },
    dataset: { type: 'string', default: 'production' },
    'project-id': { type: 'string' },
    origin: { type: 'string', multiple: true },
    http: { type: 'boolean', default: false },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got "${values.port}"`);

const lake = await startContentLake({
  file: path.resolve(values.file),
  port,
  host: values.host,
  token: values.token,
  users: LAKE_USERS,
  dataset: values.dataset,
  projectId: values['project-id'],
  allowedOrigins: values.origin,
  ...(values.http ? {} : { tls: lakeTls() }),
});
console.log(lake.origin);
console.error(`Local Content Lake: dataset "${lake.dataset}", ${lake.documents().length} documents from ${values.file}; Ctrl-C stops it.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void lake.stop().then(() => process.exit(0));
  });
}
