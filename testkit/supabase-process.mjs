/**
 * The Supabase stand-in (PostgREST over Postgres, testkit/postgrest-harness.ts) in its own process
 * (testkit/supabase-child.mjs), so that its Postgres does not share the load generator's event loop,
 * driven over IPC: stop, start, freeze and continue PostgREST, query the database. For npm run bench -- load's
 * fault phases.
 */
import { fork } from 'node:child_process';

import { APP_ROOT } from './paths.ts';
import { sleep } from './processes.ts';

const CHILD = new URL('./supabase-child.mjs', import.meta.url);

/** Stand-ins still running: an interrupted run stops them (SIGTERM: SIGKILL would leave PostgREST running). */
const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});

/** Calls over IPC: each message has an id, each answer the same id. */
function caller(child) {
  let next = 0;
  const pending = new Map();
  child.on('message', (message) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(message.error));
    else waiting.resolve(message.result);
  });
  return (command, sql, params) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      child.send({ id, command, sql, params });
    });
}

/** Starts the stand-in in its own process; resolves once it is ready, with the harness's methods. */
export async function startStack() {
  const child = fork(CHILD, [], { cwd: APP_ROOT, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const ready = await new Promise((resolve, reject) => {
    child.once('exit', (exitCode) => reject(new Error(`Supabase stand-in exited (${exitCode}) before it was ready`)));
    child.on('message', (message) => message.ready && resolve(message));
  });
  const call = caller(child);
  return {
    url: ready.url,
    publishableKey: ready.publishableKey,
    secretKey: ready.secretKey,
    stopPostgrest: () => call('stop'),
    startPostgrest: () => call('start'),
    pausePostgrest: () => call('pause'),
    resumePostgrest: () => call('resume'),
    query: (sql, params) => call('query', sql, params),
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await call('close').catch(() => {});
      child.disconnect();
      await Promise.race([exited, sleep(5_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
