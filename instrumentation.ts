/**
 * Runs once when a server starts (Next's instrumentation hook), before it answers any request. The work
 * is Node-only (the file system, worker threads, process.exit), so it lives in instrumentation-node.ts
 * and is loaded only in the Node.js runtime, as Next's docs show: the proxy's edge bundle never sees it.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') await (await import('./instrumentation-node')).start();
}
