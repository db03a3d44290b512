import 'server-only';

import { createClient, type SupabaseClient } from '@supabase/supabase-js';

import type { SupabaseConfig } from '@/lib/env/public';

/** The one place a Supabase client is made: the public key only, no session, no secret key. */
export function createSupabase(config: SupabaseConfig): SupabaseClient {
  return createClient(config.url, config.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}
