import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { officePath, OFFICE_ENDPOINTS } from '../../lib/shared/back-office';
import { addDays, dayIn } from '../../lib/shared/site-time';
import { startAppServer, type AppServer } from '../../testkit/app-server';
import { answerAndErase } from '../../testkit/back-office';
import { TOKEN_HOLDER } from '../../testkit/content-lake/server';
import { HOSTED_DIST_DIR, hostedEnv, LAKE_EDITOR_TOKEN, LAKE_PROJECT, LAKE_TOKEN } from '../../testkit/hosted';
import { seedCopy } from '../../testkit/dataset';
import { clockAhead } from '../../testkit/fake-clock';
import { postForm } from '../../testkit/forms';
import { readMailFiles } from '../../testkit/mail';
import { ownBuild } from '../../testkit/own-build';
import { startSupabaseStack, supabaseEnv, type SupabaseStack } from '../../testkit/postgrest-harness';
import { SEED, SEED_ES, seedLanguageName } from '../../testkit/seed-copy';
import { preparedDataDir, readStore } from '../../testkit/store';
import { signInWithToken, studioContext } from '../../testkit/studio';
import { expect, test } from '../../testkit/test';
import { sendSpanishRequest } from './support/dialog';

/**
 * The back office on a hosted project: the Studio of the build configured for a Sanity project (its
 * stand-in lake signs the editors in), and the store in Supabase (real Postgres behind PostgREST). Who
 * asks is Sanity's answer for the token the Studio sends; the same steps as on the embedded default
 * (tests/e2e/policy-notice.spec.ts) then run against Postgres. The version is announced in the store
 * itself, as the publish webhook would (tests/e2e/hosted.spec.ts tests that path): the lake stays as
 * the other hosted tests expect it.
 */

test.describe('the back office of a hosted project', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });

  let stack: SupabaseStack;
  let server: AppServer;
  let build: Awaited<ReturnType<typeof ownBuild>>;
  let dataDir: string;
  const parent = `madre-${Date.now()}@example.com`;
  const day = addDays(dayIn(Date.now(), 'UTC'), 40);

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    [stack, build, dataDir] = await Promise.all([
      startSupabaseStack({ database: 'postgres' }),
      ownBuild(HOSTED_DIST_DIR),
      mkdtemp(path.join(os.tmpdir(), 'back-office-')),
    ]);
    server = await startAppServer({
      DATA_DIR: dataDir,
      ...hostedEnv(),
      ...supabaseEnv(stack),
      NEXT_DIST_DIR: build.distDir,
      BACK_OFFICE_HMAC_KEY: randomBytes(32).toString('base64url'),
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await stack?.close();
    await build?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('the server asks Sanity who sends each token: none or a forged one is 401, a role not named 403, an administrator is in; no answer may be kept', async () => {
    const ask = (token?: string, endpoint = officePath(OFFICE_ENDPOINTS.me), body?: object) =>
      fetch(`${server.origin}${endpoint}`, {
        method: body ? 'POST' : 'GET',
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const answers = {
      none: await ask(),
      forged: await ask('forged-token'),
      editor: await ask(LAKE_EDITOR_TOKEN),
      administrator: await ask(LAKE_TOKEN),
      person: await ask(LAKE_TOKEN, officePath(OFFICE_ENDPOINTS.person), { email: parent }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([who, answer]) => [who, answer.status]))).toEqual({
      none: 401,
      forged: 401,
      editor: 403,
      administrator: 200,
      person: 200,
    });
    expect(await answers.administrator.json()).toEqual({ officer: TOKEN_HOLDER, admin: true });
    for (const [who, answer] of Object.entries(answers)) expect(answer.headers.get('cache-control'), who).toBe('private, no-store');
  });

  test("a parent's Spanish request is answered, the notice lists the parent, and the parent's data is exported and erased", async ({
    browser,
    page,
  }) => {
    await page.goto(`${server.origin}/es`);
    const stayUpdated = SEED_ES.landing.stayUpdated!;
    await page.getByLabel(stayUpdated.emailLabel!).fill(parent);
    await page.getByRole('button', { name: stayUpdated.buttonLabel! }).click();
    await expect(page.getByText(stayUpdated.successMessage!)).toBeVisible();
    await expect.poll(async () => (await readMailFiles(dataDir)).some(({ to }) => to === parent)).toBe(true);
    const confirmation = (await readMailFiles(dataDir)).find(({ to }) => to === parent)!;
    const link = new URL(confirmation.textLinks[0]!);
    await page.goto(`${server.origin}${link.pathname}${link.search}`);
    await page.getByRole('button', { name: SEED_ES.settings.subscription!.confirmLink! }).click();
    await expect(page).toHaveURL(/\/es\/subscription\/confirmed$/);

    const subject = `Mis datos ${Date.now().toString(36)}`;
    await sendSpanishRequest(page, server.origin, { email: parent, subject, message: 'Quiero ver y borrar mis datos.' });
    await stack.query('select public.mail_announce($1, $2, $3)', [day, 'Reports are kept 60 days.', new Date().toISOString()]);
    await expect
      .poll(() => readMailFiles(dataDir).then((mails) => mails.filter(({ to }) => to === parent).length), { timeout: 30_000 })
      .toBe(2);

    const problems: string[] = [];
    const context = await studioContext(
      browser,
      { local: false, signIn: (each) => signInWithToken(each, LAKE_PROJECT.projectId, LAKE_TOKEN) },
      problems,
    );
    await answerAndErase(await context.newPage(), {
      origin: server.origin,
      officer: TOKEN_HOLDER,
      email: parent,
      subject,
      language: `${seedLanguageName('es')} (es)`,
      day,
      query: (sql, params) => stack.query(sql, params),
    });
    expect(problems).toEqual([]);
    await context.close();
  });
});

/**
 * The retention of Site settings, applied by the sweep of the server's mail sender (lib/mail/sweep.ts),
 * which runs as the server starts: on the embedded default, whose store reads the server's clock, a
 * server started again with its clock a month and a day ahead (testkit/fake-clock.ts) deletes the
 * request answered, and keeps the one nobody answered yet.
 */
test.describe('retention on the embedded default', () => {
  test.describe.configure({ timeout: 120_000 });

  test('answered requests are deleted the days Site settings keep them after their answer; unanswered ones stay', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'retention-'));
    const env = { DATA_DIR: await preparedDataDir(path.join(dir, 'data')), CONTENT_FILE: await seedCopy(dir) };
    const subjects = { answered: `Answered ${Date.now()}`, waiting: `Waiting ${Date.now()}` };
    const stored = () =>
      readStore<{ subject: string; status: string }>(env.DATA_DIR, 'select subject, status from public.support_requests order by subject');
    let server = await startAppServer(env);
    try {
      for (const subject of Object.values(subjects))
        expect((await postForm(server.origin, 'support', { email: 'parent@example.com', subject, message: 'Hello.' })).status).toBe(200);
      const list = await fetch(`${server.origin}${officePath(OFFICE_ENDPOINTS.requests)}`, json({ filter: {} }));
      const { rows } = (await list.json()) as { rows: { id: string; subject: string }[] };
      const answered = rows.find(({ subject }) => subject === subjects.answered)!;
      expect(
        (await fetch(`${server.origin}${officePath(OFFICE_ENDPOINTS.markRequest)}`, json({ id: answered.id, answered: true }))).status,
      ).toBe(200);
      expect(await stored()).toEqual([
        { subject: subjects.answered, status: 'answered' },
        { subject: subjects.waiting, status: 'new' },
      ]);
      await server.stop();
      const days = Number(SEED.settings.answeredRequestDays ?? 30) + 1;
      server = await startAppServer({ ...env, ...clockAhead(days * 86_400_000) });
      await expect.poll(stored, { timeout: 30_000 }).toEqual([{ subject: subjects.waiting, status: 'new' }]);
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A POST of `body` as JSON, as the Studio's tool sends it. */
const json = (body: object): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
