import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { officePath, OFFICE_ENDPOINTS } from '../../lib/shared/back-office';
import { CACHED_ENCODINGS } from '../../lib/shared/cached-encodings';
import { PUBLIC_PATHS } from '../../lib/shared/public-pages';
import { editDocument, postWebhook, seedCopy, WEBHOOK_SECRET, type Doc } from '../../testkit/dataset.ts';
import { renderBlockingRequests } from '../../testkit/page-bytes.ts';
import { freePort, memory, sleep } from '../../testkit/processes.ts';
import { SEED_FORM, SEED_NOT_FOUND } from '../../testkit/seed-copy.ts';
import { preparedDataDir, readStore } from '../../testkit/store.ts';
import { expect, test } from '../../testkit/test.ts';

/**
 * The deployed shape, smoke-tested: `npm run serve:prod` (scripts/serve-prod.ts, on the build npm test
 * made) started from a directory outside the repo, with its own store and dataset copy; then pages,
 * a submission, a publish and an outage, all through nginx, as a visitor and an editor meet them.
 */

test.describe.configure({ mode: 'serial' });

const ROOT = process.cwd();
const CACHE_STATUS = 'x-cache-status';
/** Seconds after which nginx's copy of a page has expired (it lives one second, counted in whole seconds). */
const PAST_COPY_LIFETIME_MS = 2100;
const POLL_MS = 100;

/** What serve:prod prints once it is up (scripts/serve-prod.ts): the site, each app instance, nginx. */
type Printed = { url: string; appUrl: string; appPid: number; nginxPid: number };
type ServeProd = { child: ChildProcess; output: () => string; exited: Promise<number | null>; printed: Printed };

let work: string;
let serve: ServeProd;
let stack: Printed;
let contentFile: string;
let dataDir: string;

const isRunning = (pid: number | undefined) => {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls until `check` holds; returns how many polls it took. `limit` polls at most. */
async function pollUntil(check: () => Promise<boolean>, limit: number): Promise<number> {
  for (let polls = 1; polls <= limit; polls += 1) {
    if (await check()) return polls;
    await sleep(POLL_MS);
  }
  throw new Error(`not within ${limit} polls, ${POLL_MS} ms apart:\n${serve.output().slice(-4000)}`);
}

/**
 * `npm run <script> --no-build` as typed in `work` (not through npm in the repo), in a process group of
 * its own as a terminal or a supervisor starts it.
 */
function startCommand(script: 'serve.ts' | 'serve-prod.ts', env: Record<string, string>) {
  const runEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete runEnv.INIT_CWD;
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', script), '--no-build'], {
    cwd: work,
    env: runEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** `npm run serve:prod --no-build`, once it printed its URL. */
async function startServeProd(env: Record<string, string>): Promise<ServeProd> {
  const { child, output, exited } = startCommand('serve-prod.ts', {
    PORT: String(await freePort()),
    STACK_DIR: path.join(work, 'run'),
    ...env,
  });
  while (!output().includes('[serve:prod] ready: ')) {
    if (child.exitCode !== null) throw new Error(`serve:prod exited with code ${child.exitCode}:\n${output()}`);
    await sleep(200);
  }
  const text = output();
  const pids = {
    url: /\[serve:prod\] ready: (\S+)/.exec(text)![1]!,
    appUrl: /\[serve:prod\] app (\S+) pid/.exec(text)![1]!,
    appPid: Number(/\[serve:prod\] app \S+ pid (\d+)/.exec(text)![1]),
    nginxPid: Number(/\[serve:prod\] nginx pid (\d+)/.exec(text)![1]),
  };
  return { child, output, exited, printed: pids };
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  work = await mkdtemp(path.join(os.tmpdir(), 'stack-e2e-'));
  dataDir = path.join(work, 'data');
  contentFile = await seedCopy(work);
  serve = await startServeProd({
    DATA_DIR: dataDir,
    CONTENT_FILE: contentFile,
    SANITY_REVALIDATE_SECRET: WEBHOOK_SECRET,
    RATE_LIMIT_MAX: '1000',
  });
  stack = serve.printed;
});

test.afterAll(async () => {
  if (serve?.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  await rm(work, { recursive: true, force: true });
});

test('the public pages answer 200 through nginx, the second time from its cache, with their static files from disk and no render-blocking request', async () => {
  for (const page of PUBLIC_PATHS) {
    const first = await fetch(stack.url + page);
    expect(first.status, page).toBe(200);
    const html = await first.text();
    const second = await fetch(stack.url + page);
    expect(second.status, page).toBe(200);
    expect(second.headers.get(CACHE_STATUS), page).toBe('HIT');
    expect(await second.text(), page).toBe(html);
    // What nginx keeps and serves: a copy whose first paint waits for it alone (tests/e2e/budget.spec.ts).
    expect(renderBlockingRequests(html), page).toEqual([]);

    const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, page).toBeTruthy();
    const asset = await fetch(stack.url + script);
    expect(asset.status, script).toBe(200);
    expect(asset.headers.get('cache-control'), script).toBe('public, max-age=31536000, immutable');
  }
});

test("an unknown path gets the app's 404 page and headers through nginx", async () => {
  const response = await fetch(`${stack.url}/no-such-page-${Date.now()}`);
  expect(response.status).toBe(404);
  expect(await response.text()).toContain(SEED_NOT_FOUND.heading);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  // Answered by the app itself, not by a rewrite Next sends back to it over HTTP (which it marks so).
  expect(response.headers.get('x-middleware-rewrite')).toBeNull();
});

test("the back office answers this machine at the app's own port, and refuses the same request through nginx, which keeps neither", async () => {
  const ask = (origin: string) => fetch(`${origin}${officePath(OFFICE_ENDPOINTS.me)}`);
  const direct = await ask(stack.appUrl);
  expect(direct.status).toBe(200);
  expect(direct.headers.get('cache-control')).toBe('private, no-store');
  for (const attempt of ['first', 'second']) {
    const proxied = await ask(stack.url);
    expect(proxied.status, attempt).toBe(403);
    expect(proxied.headers.get('cache-control'), attempt).toBe('private, no-store');
    expect(proxied.headers.get(CACHE_STATUS), attempt).not.toBe('HIT');
  }
});

test('a support request sent from the page through nginx is stored', async ({ page }) => {
  // The first write creates the embedded store (PGlite's initdb): 20 s and more on a busy machine.
  test.setTimeout(120_000);
  const subject = `Through the stack ${Date.now().toString(36)}`;
  await page.goto(`${stack.url}/support`);
  await page.getByRole('link', { name: /^General Feedback/ }).click();
  const dialog = page.locator('dialog#request-feedback');
  await dialog.getByLabel(SEED_FORM.emailLabel).fill('stack@example.com');
  await dialog.getByLabel(SEED_FORM.subjectLabel).fill(subject);
  await dialog.getByLabel(SEED_FORM.messageLabel).fill('Sent through nginx to the standalone server.');
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog.locator('button[type="submit"]')).toHaveText(SEED_FORM.sent, { timeout: 100_000 });

  const rows = await readStore<{ email: string; type: string }>(
    dataDir,
    'select email, type from public.support_requests where subject = $1',
    [subject],
  );
  expect(rows).toEqual([{ email: 'stack@example.com', type: 'feedback' }]);
});

/**
 * A publish through nginx: the dataset edited and the signed webhook sent, as Sanity would. The app logs
 * when nginx has taken the pages it changed (lib/cache/cache-refresh.ts); no page is asked for meanwhile,
 * so nothing else can have stored the edit. Then every encoding's copy is the edit, answered as stored.
 */
async function publishReachesCache(document: { _id: string; _type: string }, edit: (doc: Doc) => void, pages: string[], text: string) {
  await editDocument(document._id, edit, contentFile);
  const logged = serve.output().length;
  const webhook = await postWebhook(stack.url, document);
  expect(webhook.status).toBe(200);
  const polls = await pollUntil(
    async () =>
      serve
        .output()
        .slice(logged)
        .includes(`[app] cache refresh through ${stack.url}: ${pages.join(', ')}\n`),
    100,
  );
  for (const encoding of CACHED_ENCODINGS) {
    const response = await fetch(`${stack.url}${pages[0]}`, { headers: { 'accept-encoding': encoding } });
    expect(response.headers.get(CACHE_STATUS), encoding).toBe('HIT');
    expect(response.headers.get('content-encoding') ?? 'identity', encoding).toBe(encoding);
    expect(await response.text(), encoding).toContain(text);
  }
  console.log(`${document._id}: in the cache at poll ${polls} (${POLL_MS} ms apart) after the webhook answered`);
}

test("a publish (dataset edit and signed webhook through nginx) reaches the cache through the webhook's refresh, in each language that shows it", async () => {
  for (const page of ['/privacy', '/es', '/es/privacy']) expect((await fetch(`${stack.url}${page}`)).status).toBe(200);
  // The default language's policy: its pages in every language, which fall back to it.
  const title = `Policy published ${Date.now()}`;
  await publishReachesCache(
    { _type: 'privacyPolicy', _id: 'privacyPolicy' },
    (doc) => void (doc.title = title),
    ['/privacy', '/privacy/versions', '/es/privacy', '/es/privacy/versions'],
    title,
  );
  // A translation: its own language's page, and no other.
  const headline = `Titular publicado ${Date.now()}`;
  await publishReachesCache(
    { _type: 'landingPage', _id: 'landingPage-es' },
    (doc) => void ((doc.hero as { headline: string }).headline = headline),
    ['/es'],
    headline,
  );
  const { rssBytes, peakRssBytes } = memory(stack.appPid);
  console.log(`app memory now ${(rssBytes / 2 ** 20).toFixed(0)} MiB resident, peak ${(peakRssBytes / 2 ** 20).toFixed(0)} MiB`);
});

test('with the app hung (SIGSTOP) and then killed, the cached pages still answer 200, and serve:prod then stops nginx and exits 1', async () => {
  test.setTimeout(120_000);
  const bodies = await Promise.all(PUBLIC_PATHS.map(async (page) => (await fetch(stack.url + page)).text()));
  const loadAll = () => Promise.all(PUBLIC_PATHS.map((page) => fetch(stack.url + page)));
  const expectStale = async (responses: Response[]) => {
    for (const [index, response] of responses.entries()) {
      expect(response.status, PUBLIC_PATHS[index]).toBe(200);
      expect(response.headers.get(CACHE_STATUS), PUBLIC_PATHS[index]).toBe('STALE');
      expect(await response.text(), PUBLIC_PATHS[index]).toBe(bodies[index]);
    }
  };

  // Hung: nginx waits for its read timeout, then answers from the cache.
  await sleep(PAST_COPY_LIFETIME_MS);
  process.kill(stack.appPid, 'SIGSTOP');
  try {
    await expectStale(await loadAll());
  } finally {
    process.kill(stack.appPid, 'SIGCONT');
  }

  // Gone: refused at once (the copies are still expired: nothing refreshed them), answered from the
  // cache. serve:prod is held meanwhile, as nginx stays up under systemd while the app is down; let go,
  // it stops nginx and exits 1, leaving the restart to the supervisor (deploy/site@.service).
  process.kill(serve.child.pid!, 'SIGSTOP');
  try {
    process.kill(stack.appPid, 'SIGKILL');
    await expectStale(await loadAll());
  } finally {
    process.kill(serve.child.pid!, 'SIGCONT');
  }
  expect(await serve.exited).toBe(1);
  expect(serve.output()).toContain('app exited (SIGKILL)');
  expect(isRunning(stack.nginxPid)).toBe(false);
});

test('SIGTERM stops nginx and the app, and serve:prod exits 0', async () => {
  test.setTimeout(120_000);
  serve = await startServeProd({ DATA_DIR: await preparedDataDir(path.join(work, 'data-2')), CONTENT_FILE: contentFile });
  const { appPid, nginxPid } = serve.printed;
  serve.child.kill('SIGTERM');
  expect(await serve.exited).toBe(0);
  expect(isRunning(appPid)).toBe(false);
  expect(isRunning(nginxPid)).toBe(false);
});

test('npm start killed with SIGKILL, alone or with its process group, leaves no server behind: the port and the store are free for the next start', async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  const env = { PORT: String(port), DATA_DIR: await preparedDataDir(path.join(work, 'data-3')), CONTENT_FILE: contentFile };
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  const serving = async () => {
    const command = startCommand('serve.ts', env);
    while (
      !(await fetch(`http://127.0.0.1:${port}/`).then(
        (response) => response.status === 200,
        () => false,
      ))
    ) {
      if (command.child.exitCode !== null) throw new Error(`npm start exited with code ${command.child.exitCode}:\n${command.output()}`);
      await sleep(POLL_MS);
    }
    return command;
  };

  // The group, as a terminal's or a supervisor's kill sends it: the server dies with the command at once.
  // The command alone: its server sees its pipe close and shuts down on its own.
  for (const [target, polls] of [
    ['group', 20],
    ['command', 100],
  ] as const) {
    const { child, exited } = await serving();
    process.kill(target === 'group' ? -child.pid! : child.pid!, 'SIGKILL');
    await exited;
    await pollUntil(async () => !(await listening()), polls);
  }
  // Its store was left to the next start, which serves as the first did; SIGTERM then stops both, with
  // the server's own code for it (143: stopped by SIGTERM).
  const last = await serving();
  process.kill(-last.child.pid!, 'SIGTERM');
  expect(await last.exited).toBe(143);
  expect(await listening()).toBe(false);
});
