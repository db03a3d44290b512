// The Supabase stand-in's own process, forked by testkit/supabase-process.mjs and driven over IPC:
// { id, command: 'stop' | 'start' | 'pause' | 'resume' | 'query' | 'close', sql?, params? } in,
// { id, result } or { id, error } out; { ready, url, publishableKey, secretKey } once up.
import { startSupabaseStack } from './postgrest-harness.ts';

const stack = await startSupabaseStack();
let closing;
const close = () => (closing ??= stack.close());
const closeAndExit = () => void close().finally(() => process.exit(0));
process.on('disconnect', closeAndExit);
// SIGTERM stops PostgREST too (SIGKILL would leave it running).
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, closeAndExit);

const commands = {
  stop: () => stack.stopPostgrest(),
  start: () => stack.startPostgrest(),
  pause: () => stack.pausePostgrest(),
  resume: () => stack.resumePostgrest(),
  query: ({ sql, params }) => stack.query(sql, params),
  close,
};

process.on('message', async (message) => {
  try {
    const result = await commands[message.command](message);
    process.send({ id: message.id, result: result ?? null });
  } catch (error) {
    process.send({ id: message.id, error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true, url: stack.url, publishableKey: stack.publishableKey, secretKey: stack.secretKey });
