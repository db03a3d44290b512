/**
 * Runs once when a server starts, before it answers any request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const [{ trustedProxyHops }, { installTrustProxy }] = await Promise.all([import('@/lib/env/server'), import('@/lib/http/trust-proxy')]);
  installTrustProxy(trustedProxyHops());
}
