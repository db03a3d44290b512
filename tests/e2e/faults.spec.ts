import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { PGlite } from '../../lib/store/pglite-core.mjs';

import { GENERIC_FAILURE, REQUEST_SENT, SEED_FORM } from '../../testkit/seed-copy.ts';
import { SUBMISSION_KEY_FIELD } from '../../lib/forms/validation.ts';
import { outcome, postForm } from '../../testkit/forms.ts';
import { launchAppServer, startAppServer, type AppServer, type Exit } from '../../testkit/app-server.ts';
import { startSupabaseStack, supabaseEnv, type SupabaseStack } from '../../testkit/postgrest-harness.ts';
import { preparedDataDir } from '../../testkit/store.ts';

import { dialogParts } from './support/dialog.ts';
import { followProcessClock } from '../../testkit/browser-clock.ts';
import { expect, test } from '../../testkit/test.ts';

/**
 * Faults an operator meets, each against its own production server of the same build
 * (testkit/app-server.ts): a hosted backend that hangs, a second server on one store, a server
 * killed with SIGKILL mid-load, and settings that are wrong at start.
 */

/** The servers here get a short deadline so the test does not wait the default 10 s. */
const DEADLINE_SECONDS = 2;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const unique = (label: string) => `${label} ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
const tempDir = (label: string) => mkdtemp(path.join(os.tmpdir(), `e2e-${label}-`));

/** Waits for a server that should stop by itself; null if it is still running after `ms`. */
const exitWithin = (server: AppServer, ms: number) =>
  Promise.race<Exit | null>([server.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

/** Reads a store no server has open any more. */
async function readStore<T>(dataDir: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const db = await PGlite.create(path.join(dataDir, 'pglite'));
  try {
    return (await db.query<T>(sql, params)).rows;
  } finally {
    await db.close();
  }
}

test.describe('the submission key', () => {
  test('is minted in the browser for each opened form, never written into the shared page', async ({ page, request }) => {
    const html = await (await request.get('/support')).text();
    expect(html).not.toContain(`name="${SUBMISSION_KEY_FIELD}"`);

    await page.goto('/support');
    const link = page.getByRole('link', { name: /^Report an Issue/ });
    const parts = dialogParts(page, 'issue');
    await link.click();
    const first = await parts.key.inputValue();
    expect(first).toMatch(UUID);
    await parts.cancel.click();
    await link.click();
    const second = await parts.key.inputValue();
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);

    // Another visitor of the same prerendered page.
    const other = await page.context().newPage();
    await other.goto('/support');
    await other.getByRole('link', { name: /^Report an Issue/ }).click();
    expect(await dialogParts(other, 'issue').key.inputValue()).not.toBe(second);
  });

  test('stays through a failure, so sending again is the same request, and is new after a success', async ({ page }) => {
    await page.goto('/support');
    await page.getByRole('link', { name: /^Report an Issue/ }).click();
    const parts = dialogParts(page, 'issue');
    const key = await parts.key.inputValue();
    await parts.email.fill('same-key@example.com');
    await parts.subject.fill(unique('Sent twice'));
    await parts.message.fill('The first answer never arrives.');

    await page.route('/support', (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.continue()));
    await parts.submit.click();
    await expect(parts.status).toHaveText(GENERIC_FAILURE);
    await expect(parts.key).toHaveValue(key);

    await page.unroute('/support');
    await parts.submit.click();
    await expect(parts.status).toHaveText(REQUEST_SENT);
    await expect(parts.key).not.toHaveValue(key);
    expect(await parts.key.inputValue()).toMatch(UUID);
  });
});

/** The hosted backend through real PostgREST, frozen with SIGSTOP: it takes connections and never answers. */
test.describe('a hosted backend that hangs', () => {
  test.describe.configure({ mode: 'serial' });

  let stack: SupabaseStack | undefined;
  let server: AppServer | undefined;
  let dataDir = '';

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    stack = await startSupabaseStack({ database: 'postgres' });
    dataDir = await tempDir('hung');
    server = await startAppServer({
      DATA_DIR: dataDir,
      ...supabaseEnv(stack),
      STORE_TIMEOUT_SECONDS: String(DEADLINE_SECONDS),
    });
    // A server that has served before: the deadline is the store's, not the first action's cold start.
    const warmUp = { email: 'warm.up@example.com', subject: unique('Before the hang'), message: 'The backend answers.' };
    expect(outcome(await postForm(server.origin, 'support', warmUp))).toBe('accepted');
  });

  test.afterAll(async () => {
    await server?.stop();
    await stack?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const rowsWithSubject = (subject: string) => stack!.query('select 1 from public.support_requests where subject = $1', [subject]);

  /** Freezes PostgREST around `act` (a submit), so the request hangs; always lets it go again. */
  async function whileHung(act: () => Promise<void>) {
    stack!.pausePostgrest();
    try {
      await act();
    } finally {
      stack!.resumePostgrest();
    }
  }

  for (const javaScript of [true, false]) {
    test(`${javaScript ? 'with' : 'without'} JavaScript: the failure within the deadline + 1 s with the text kept; the late row lands once; sending again is a success and no second row`, async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const context = await browser.newContext({ javaScriptEnabled: javaScript });
      await followProcessClock(context);
      const page = await context.newPage();
      // Without JavaScript the card is a link to the dialog as a target; with it, the card opens it.
      await page.goto(`${server!.origin}/support${javaScript ? '' : '#request-feedback'}`);
      if (javaScript) await page.getByRole('link', { name: /^General Feedback/ }).click();
      const parts = dialogParts(page, 'feedback');
      const values = {
        email: 'hung@example.com',
        subject: unique('While PostgREST hung'),
        message: 'Typed while the backend did not answer.',
      };
      await parts.email.fill(values.email);
      await parts.subject.fill(values.subject);
      await parts.message.fill(values.message);

      await whileHung(async () => {
        await parts.submit.click();
        await expect(parts.status).toHaveText(GENERIC_FAILURE, { timeout: (DEADLINE_SECONDS + 1) * 1000 });
      });
      await expect(parts.submit).toHaveText(SEED_FORM.error);
      await expect(parts.submit).toBeEnabled();
      await expect(parts.email).toHaveValue(values.email);
      await expect(parts.subject).toHaveValue(values.subject);
      await expect(parts.message).toHaveValue(values.message);

      // PostgREST goes on with the insert it was holding: committed late, once.
      await expect.poll(async () => (await rowsWithSubject(values.subject)).length, { timeout: 30_000 }).toBe(1);

      await parts.submit.click();
      await expect(parts.status).toHaveText(REQUEST_SENT);
      expect(await rowsWithSubject(values.subject)).toHaveLength(1);
      expect(server!.running()).toBe(true);
      await context.close();
    });
  }
});

// One server's store through both: a second server on it, then a SIGKILL under load (one start fewer than a
// server for each).
test.describe('one store', () => {
  test.describe.configure({ mode: 'serial' });
  let dataDir = '';
  let server: AppServer | undefined;
  let second: AppServer | undefined;

  test.afterAll(async () => {
    await second?.stop();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Every file of the store with its size and modification time: "untouched" means all equal. */
  async function fingerprint(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
    return Promise.all(
      files.sort().map(async (file) => `${path.relative(dir, file)} ${(await stat(file)).size} ${(await stat(file)).mtimeMs}`),
    );
  }

  test('a second server on the same DATA_DIR stops at start naming the store and the process holding it, touches nothing, and npm run requests still reads it', async () => {
    test.setTimeout(180_000);
    dataDir = await preparedDataDir(await tempDir('one-store'));
    const first = (server = await startAppServer({ DATA_DIR: dataDir }));
    const values = {
      email: 'first.server@example.com',
      subject: unique('Through the first server'),
      message: 'Stored before the second start.',
    };
    expect(outcome(await postForm(first.origin, 'support', values))).toBe('accepted');
    const store = path.join(dataDir, 'pglite');
    const before = await fingerprint(store);

    second = await launchAppServer({ DATA_DIR: dataDir });
    const exit = await exitWithin(second, 90_000);
    expect(exit, `the second server kept running:\n${second.output()}`).not.toBeNull();
    expect(exit!.code).toBe(1);
    expect(second.output()).toContain(`The embedded store ${store} is in use by process ${first.pid}`);
    expect(await fingerprint(store)).toEqual(before);

    expect(first.running()).toBe(true);
    const again = { ...values, subject: unique('Still through the first server') };
    expect(outcome(await postForm(first.origin, 'support', again))).toBe('accepted');

    const requests = spawnSync(process.execPath, ['scripts/requests.ts'], {
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(requests.status, requests.stderr).toBe(0);
    expect(requests.stdout).toContain(values.email);
    // And, for legal reviewers, the notices per version of the privacy policy (none announced here).
    expect(requests.stdout).toContain('no version has been announced to subscribers');
  });

  test('a server killed with SIGKILL under 20 clients loses no acknowledged request and doubles none; the restart opens the store as it is', async () => {
    test.setTimeout(300_000);
    const CLIENTS = 20;
    // The first test's server, holding the store.
    const running = server!;
    const fields = (id: number) => ({
      email: `killed.${id}@example.com`,
      subject: `Killed run #${id}`,
      message: `Submission ${id}, sent while the server was killed.`,
    });

    const acknowledged = new Set<number>();
    const unanswered: number[] = [];
    let sent = 0;
    let killed = false;
    const origin = running.origin;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (!killed) {
        const id = ++sent;
        if (outcome(await postForm(origin, 'support', fields(id))) === 'accepted') acknowledged.add(id);
        else unanswered.push(id);
      }
    });
    // Killed mid-stream: with 20 requests in flight, some are committed but not yet answered.
    await expect.poll(() => acknowledged.size, { timeout: 120_000 }).toBeGreaterThanOrEqual(3 * CLIENTS);
    killed = true;
    await running.kill();
    await Promise.all(clients);
    expect(unanswered.length).toBeGreaterThan(0);

    // The lock of the killed process is stale: the restart takes it over and opens the store unrepaired.
    server = await startAppServer({ DATA_DIR: dataDir });
    // Each visitor who got no answer sends the same form again, as they would.
    for (const id of unanswered) {
      expect(outcome(await postForm(server.origin, 'support', fields(id))), `resubmission of #${id}`).toBe('accepted');
      acknowledged.add(id);
    }
    await server.stop();

    const rows = await readStore<{ subject: string; n: number }>(
      dataDir,
      "select subject, count(*)::int as n from public.support_requests where subject like 'Killed run #%' group by subject",
    );
    const stored = new Map(rows.map((row) => [Number(row.subject.slice('Killed run #'.length)), row.n]));
    const lost = [...acknowledged].filter((id) => !stored.has(id));
    const doubled = [...stored].filter(([, n]) => n > 1).map(([id]) => id);
    expect({ lost, doubled }).toEqual({ lost: [], doubled: [] });
    expect(stored.size).toBe(acknowledged.size);
  });
});

test.describe('configuration mistakes stop the server at start', () => {
  const MISTAKES: Array<[string, Record<string, string>, string]> = [
    [
      'half a Supabase pair',
      { NEXT_PUBLIC_SUPABASE_URL: 'http://127.0.0.1:9' },
      'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is not set, but NEXT_PUBLIC_SUPABASE_URL is',
    ],
    [
      'half a Sanity pair',
      { NEXT_PUBLIC_SANITY_DATASET: 'production' },
      'NEXT_PUBLIC_SANITY_PROJECT_ID is not set, but NEXT_PUBLIC_SANITY_DATASET is',
    ],
    [
      'an unparsable RATE_LIMIT_MAX',
      { RATE_LIMIT_MAX: '5 per minute' },
      'RATE_LIMIT_MAX must be a whole number from 1 to 1000000000, got "5 per minute"',
    ],
    [
      'an out-of-range RATE_LIMIT_WINDOW_SECONDS',
      { RATE_LIMIT_WINDOW_SECONDS: '0' },
      'RATE_LIMIT_WINDOW_SECONDS must be a whole number from 1 to 604800, got "0"',
    ],
    [
      'an unparsable STORE_TIMEOUT_SECONDS',
      { STORE_TIMEOUT_SECONDS: '10s' },
      'STORE_TIMEOUT_SECONDS must be a number from 0.1 to 300, got "10s"',
    ],
  ];

  let scratch = '';
  test.beforeAll(async () => {
    scratch = await tempDir('config');
  });
  test.afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  for (const [label, env, message] of MISTAKES) {
    test(`${label}: exits non-zero, saying which variable and what is wrong`, async () => {
      test.setTimeout(120_000);
      const server = await launchAppServer({ DATA_DIR: path.join(scratch, 'data'), ...env });
      const exit = await exitWithin(server, 90_000);
      if (!exit) await server.kill();
      expect(exit, `the server kept running:\n${server.output()}`).not.toBeNull();
      expect(exit!.code).toBe(1);
      expect(server.output()).toContain(message);
    });
  }

  test('a DATA_DIR that cannot be written: exits non-zero, naming it', async () => {
    test.setTimeout(120_000);
    // A directory can never be made below a regular file (permissions would not stop root).
    const file = path.join(scratch, 'a-file');
    await writeFile(file, '');
    const dataDir = path.join(file, 'data');
    const server = await launchAppServer({ DATA_DIR: dataDir });
    const exit = await exitWithin(server, 90_000);
    if (!exit) await server.kill();
    expect(exit, `the server kept running:\n${server.output()}`).not.toBeNull();
    expect(exit!.code).toBe(1);
    expect(server.output()).toContain(`DATA_DIR ${dataDir} cannot be written`);
  });
});
