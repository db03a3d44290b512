/**
 * A real PostgreSQL (Debian's, 15 on bookworm; POSTGRES_BIN_DIR for another) for a test or a script:
 * initdb in its own temporary directory, the server on a free port of 127.0.0.1 only (no socket file),
 * trust authentication, no fsync (a test database), stopped and removed by close(). Postgres refuses to
 * run as root, and CI runs as root: then initdb and the server run as `nobody` (setpriv), owning the
 * directory. Statements go through psql, so no client library is needed.
 *
 * Only relative imports with real extensions and packages: plain `node` scripts may import this file.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { freePort, startProcess, type Child } from './processes.ts';

const run = promisify(execFile);
/** POSTGRES_BIN_DIR, else Debian's newest installed major (15 on bookworm). */
function binDir(): string {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const majors = existsSync(DEBIAN_DIR) ? readdirSync(DEBIAN_DIR).filter((name) => /^\d+$/.test(name)) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL server in ${DEBIAN_DIR}: apt-get install postgresql (or set POSTGRES_BIN_DIR)`);
  return path.join(DEBIAN_DIR, newest, 'bin');
}
const SETPRIV = '/usr/bin/setpriv';
const DEBIAN_DIR = '/usr/lib/postgresql';
/** Who runs Postgres when this process is root (Debian's nobody:nogroup). */
const UNPRIVILEGED = { uid: 65534, gid: 65534 };

export type PostgresServer = {
  /** postgres://<user>@127.0.0.1:<port>/postgres for `user` (default the superuser, postgres) */
  uri(user?: string): string;
  /** The postmaster's process id (each connection's backend is its child). */
  pid: number;
  /** Rows of one statement as the superuser (a statement that returns none: []). `$n` are `params`, quoted here. */
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
  /** Runs a script of statements as the superuser, in one transaction, parameters untouched. */
  exec: (sql: string) => Promise<void>;
  close: () => Promise<void>;
};

/** [command, args] running `bin` as nobody when we are root (and killed with us, as PostgREST is). */
function asPostgresUser(bin: string, args: string[]): [string, string[]] {
  const root = process.getuid?.() === 0;
  const drop = root ? [`--reuid=${UNPRIVILEGED.uid}`, `--regid=${UNPRIVILEGED.gid}`, '--clear-groups'] : [];
  return [SETPRIV, [...drop, '--pdeathsig', 'KILL', '--', bin, ...args]];
}

/** A SQL literal for a parameter (standard_conforming_strings is on: only quotes are doubled). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.replace(/'/g, "''")}'`;
}

const withParams = (sql: string, params: unknown[]) => sql.replace(/\$(\d+)\b/g, (_, n: string) => literal(params[Number(n) - 1]));

/** Resolves once the server on `port` accepts connections (pg_isready); throws if it exits or takes 20 s. */
async function waitReady(bin: string, port: number, server: Child) {
  for (let tries = 0; ; tries += 1) {
    const ready = await run(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]).then(
      () => true,
      () => false,
    );
    if (ready) return;
    if (!server.running() || tries > 200) throw new Error(`postgres did not start on port ${port}:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'postgres-test-'));
  if (process.getuid?.() === 0) await chown(dir, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
  const data = path.join(dir, 'data');
  const [initCommand, initArgs] = asPostgresUser(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  await run(initCommand, initArgs);
  const port = await freePort();
  const settings = ['-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'];
  const [command, args] = asPostgresUser(path.join(bin, 'postgres'), ['-D', data, ...settings]);
  const server: Child = startProcess('postgres', command, args, { forward: process.env.POSTGRES_LOGS ? console.error : undefined });
  const uri = (user = 'postgres') => `postgres://${user}@127.0.0.1:${port}/postgres`;
  const psql = (...extra: string[]) =>
    run(path.join(bin, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', uri(), ...extra], { maxBuffer: 64 * 2 ** 20 });

  const close = async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(bin, port, server);
  } catch (error) {
    await close();
    throw error;
  }

  return {
    uri,
    pid: server.pid!,
    async query<T>(sql: string, params: unknown[] = []) {
      const statement = withParams(sql, params).trim().replace(/;$/, '');
      if (!/^(select|with|values)\b/i.test(statement) && !/\breturning\b/i.test(statement)) {
        await psql('-c', statement);
        return [];
      }
      const wrapped = /^(select|with|values)\b/i.test(statement)
        ? `select coalesce(json_agg(q), '[]') from (${statement}) q`
        : `with q as (${statement}) select coalesce(json_agg(q), '[]') from q`;
      const { stdout } = await psql('-A', '-t', '-c', wrapped);
      return JSON.parse(stdout) as T[];
    },
    async exec(sql: string) {
      await psql('-1', '-c', sql);
    },
    close,
  };
}
