import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { configDefaults, defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

// Unit, SQL and contract tests: they sit beside their modules (plus tests/unit/), run in Node, and never
// start a browser or the site's server (tests/unit/nginx.test.ts runs nginx against a scripted app).
// The browser tests in tests/e2e/ belong to Playwright.
export default defineConfig({
  resolve: {
    alias: [
      // The tsconfig "@/..." path; a regex so "@sanity/..." and other scoped packages are untouched.
      { find: /^@\//, replacement: `${root}/` },
      // Next resolves "server-only" to this empty module in server code; tests are server code too.
      { find: /^server-only$/, replacement: path.join(root, 'node_modules/server-only/empty.js') },
    ],
  },
  test: {
    environment: 'node',
    include: [
      'lib/**/*.test.ts',
      'packages/**/*.test.ts',
      'schemas/**/*.test.ts',
      'supabase/**/*.test.ts',
      'tests/unit/**/*.test.ts',
      'testkit/**/*.test.ts',
    ],
    exclude: [...configDefaults.exclude, 'tests/e2e/**', '.tools/**', 'bench/**'],
    testTimeout: 60_000,
    // Vitest's default is one file fewer than the cores: one at a time on 2. The slow files mostly wait on
    // Postgres, PostgREST, nginx or PGlite's worker thread, so two at a time fill two cores (unit: 148 s → 112 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The default report, and each test's time beside its limit for npm test's list of the slowest.
    reporters: ['default', './testkit/vitest-timings.ts'],
  },
});
