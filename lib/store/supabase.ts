import 'server-only';

import { createClient, type SupabaseClient } from '@supabase/supabase-js';

import type { SupabaseConfig } from '@/lib/env/public';
import type { Database } from './database.types';
import { storeTimeoutMs, supabaseSecretKey } from '@/lib/env/server';

/** Whose rights a client has: the public key's (what visitors may do), or the server's secret key's. */
export type KeyKind = 'public' | 'secret';

/**
 * fetch with the store's deadline: a backend that accepts the connection and never answers (a hung
 * PostgREST, a stuck proxy) fails the call after `timeoutMs` instead of holding the visitor forever.
 * The aborted request may still be committed later; the database stores its repeat once.
 */
function fetchWithDeadline(timeoutMs: number): typeof fetch {
  return (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
  };
}

function keyOf(config: SupabaseConfig, kind: KeyKind): string {
  if (kind === 'public') return config.publishableKey;
  // checkConfiguration stops a start without it; this is for a caller outside the server.
  const secret = supabaseSecretKey();
  if (!secret) throw new Error('SUPABASE_SECRET_KEY is not set');
  return secret;
}

/**
 * The one place a Supabase client is made: the public key, or for the server's own calls (the mail
 * outbox, the notices) its secret key; no session, every call with a deadline.
 */
export function createSupabase(config: SupabaseConfig, kind: KeyKind = 'public'): SupabaseClient<Database> {
  return createClient<Database>(config.url, keyOf(config, kind), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: fetchWithDeadline(storeTimeoutMs()) },
  });
}
