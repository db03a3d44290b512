/**
 * Where the tests and scripts find the project's files: one definition each. Relative imports with real
 * extensions only: plain `node` runs the scripts and testkit/e2e-server.mjs that import this.
 */
import path from 'node:path';

import { APP_ROOT } from '../lib/shared/app-root.mjs';

export { APP_ROOT };

/** Next's CLI, run with this Node (`node NEXT_BIN build|start|dev`), never whatever `next` is on PATH. */
export const NEXT_BIN = path.join(APP_ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');

/** The committed seed dataset (Sanity's NDJSON export). Tests and scripts edit copies of it, never it. */
export const SEED_FILE = path.join(APP_ROOT, 'seed', 'production.ndjson');
