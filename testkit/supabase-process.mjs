/**
 * The Supabase stand-in (PostgREST over Postgres, testkit/postgrest-harness.ts) in its own
 * process, so that its Postgres does not share the load generator's event loop, driven over IPC: stop,
 * start, freeze and continue PostgREST, query the database. For npm run load's fault phases.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { sleep } from './processes.ts';
import { APP_ROOT } from '../lib/app-root.mjs';

const HARNESS = path.join(APP_ROOT, 'testkit', 'postgrest-harness.ts');

/** Stand-ins still running: an interrupted run stops them (SIGTERM: SIGKILL would leave PostgREST running). */
const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});

/**
 * The Supabase stand-in in its own process (so its Postgres does not share the load generator's
 * event loop), driven over IPC: stop / start PostgREST, query the database.
 */
export async function startStack() {
  const code = `
    import { startSupabaseStack } from ${JSON.stringify(pathToFileURL(HARNESS).href)};
    const stack = await startSupabaseStack();
    let closing;
    const close = () => (closing ??= stack.close());
    process.on('disconnect', () => void close().finally(() => process.exit(0)));
    // SIGTERM stops PostgREST too (SIGKILL would leave it running).
    for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => void close().finally(() => process.exit(0)));
    process.on('message', async ({ id, command, sql, params }) => {
      try {
        let result = null;
        if (command === 'stop') await stack.stopPostgrest();
        else if (command === 'start') await stack.startPostgrest();
        else if (command === 'pause') stack.pausePostgrest();
        else if (command === 'resume') stack.resumePostgrest();
        else if (command === 'query') result = await stack.query(sql, params);
        else if (command === 'close') await close();
        process.send({ id, result });
      } catch (error) {
        process.send({ id, error: String(error?.stack ?? error) });
      }
    });
    process.send({ ready: true, url: stack.url, publishableKey: stack.publishableKey });
  `;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'load-stack-'));
  const script = path.join(dir, 'stack.mjs');
  await writeFile(script, code);
  const child = fork(script, [], { cwd: APP_ROOT, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const ready = await new Promise((resolve, reject) => {
    child.once('exit', (exitCode) => reject(new Error(`Supabase stand-in exited (${exitCode}) before it was ready`)));
    child.on('message', (message) => message.ready && resolve(message));
  });
  let next = 0;
  const pending = new Map();
  child.on('message', (message) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(message.error));
    else waiting.resolve(message.result);
  });
  const call = (command, sql, params) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      child.send({ id, command, sql, params });
    });
  return {
    url: ready.url,
    publishableKey: ready.publishableKey,
    stopPostgrest: () => call('stop'),
    startPostgrest: () => call('start'),
    pausePostgrest: () => call('pause'),
    resumePostgrest: () => call('resume'),
    query: (sql, params) => call('query', sql, params),
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        await call('close').catch(() => {});
        child.disconnect();
        await Promise.race([exited, sleep(5_000)]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
