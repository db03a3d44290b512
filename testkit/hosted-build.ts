import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { startContentLake } from './content-lake/server.ts';
import { HOSTED_DIST_DIR, hostedEnv, LAKE_PORT, LAKE_TOKEN } from './hosted.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');

/**
 * `next build` of the site configured for the local Content Lake, into HOSTED_DIST_DIR. The pages are
 * prerendered from the hosted API, so the stand-in serves the seed while the build runs. Resolves with
 * the build's exit code.
 */
export async function buildHosted(env: Record<string, string> = {}): Promise<number> {
  const lake = await startContentLake({ file: path.join(ROOT, 'seed', 'production.ndjson'), port: LAKE_PORT, token: LAKE_TOKEN });
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [NEXT_BIN, 'build'], {
        cwd: ROOT,
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env, ...hostedEnv(), NEXT_DIST_DIR: HOSTED_DIST_DIR },
        stdio: 'inherit',
      });
      child.once('error', (error) => {
        console.error(`could not run next build: ${error.message}`);
        resolve(1);
      });
      child.once('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    await lake.stop();
  }
}
