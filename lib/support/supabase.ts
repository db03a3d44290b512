import 'server-only';

import { createClient, type SupabaseClient } from '@supabase/supabase-js';

import type { SupabaseConfig } from '@/lib/env/public';
import type { Database } from '@/lib/support/database.types';
import { storeTimeoutMs } from '@/lib/env/server';

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

/** The one place a Supabase client is made: the public key only, no session, no secret key, every call with a deadline. */
export function createSupabase(config: SupabaseConfig): SupabaseClient<Database> {
  return createClient<Database>(config.url, config.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: fetchWithDeadline(storeTimeoutMs()) },
  });
}
