/**
 * Runs once when a server starts, before it answers anything (Next's instrumentation hook). A throw
 * here stops `next start` with the message and a non-zero exit: a mistyped setting or a store another
 * server holds shows at start, not at the first visitor.
 */
export async function register(): Promise<void> {
  // The edge runtime (proxy.ts) has no file system or worker threads; `next build` prerenders with no store.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { checkConfiguration } = await import('@/lib/env/server');
  const { openStoreAtStart } = await import('@/lib/support/store');
  await checkConfiguration();
  await openStoreAtStart();
}
