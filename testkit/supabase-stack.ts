/**
 * Runs the local Supabase stand-in (postgrest-harness.ts) as its own process, for the browser tests:
 *
 *   node testkit/supabase-stack.ts [port] [controlPort]
 *
 * port (default 54321) is the data API's URL port; controlPort (default port + 1) serves
 *   GET  /ready           200 once the stack is up (a Playwright webServer `url` can wait on it)
 *   POST /postgrest/stop  stops PostgREST: every insert fails until started again; answers when done
 *   POST /postgrest/start starts PostgREST again; answers once it serves requests
 *   POST /postgrest/pause freezes PostgREST (SIGSTOP): connections hang unanswered
 *   POST /postgrest/resume lets it go on (SIGCONT)
 * Prints `READY <url> <publishableKey>` when up; SIGTERM or SIGINT shuts everything down.
 * The key is always the same (see publishableKey()), so a server's env can be set before the stack is up.
 */
import { createServer } from 'node:http';

// A computed specifier: `node` needs the .ts extension, which tsc does not accept in a static import.
const { startSupabaseStack } = (await import(
  new URL('./postgrest-harness.ts', import.meta.url).href
)) as typeof import('./postgrest-harness');

const port = Number(process.argv[2] ?? 54321);
const controlPort = Number(process.argv[3] ?? port + 1);
const stack = await startSupabaseStack({ port });

const control = createServer((req, res) => {
  const actions: Record<string, (() => Promise<void>) | undefined> = {
    'GET /ready': async () => {},
    'POST /postgrest/stop': () => stack.stopPostgrest(),
    'POST /postgrest/start': () => stack.startPostgrest(),
    'POST /postgrest/pause': async () => stack.pausePostgrest(),
    'POST /postgrest/resume': async () => stack.resumePostgrest(),
  };
  const action = actions[`${req.method} ${req.url}`];
  if (!action) return void res.writeHead(404).end();
  action().then(
    () => res.writeHead(200, { 'content-type': 'text/plain' }).end('OK\n'),
    (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(error)}\n`),
  );
});
control.listen(controlPort, '127.0.0.1');

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  control.closeAllConnections();
  control.close();
  await stack.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

console.log(`READY ${stack.url} ${stack.publishableKey}`);
