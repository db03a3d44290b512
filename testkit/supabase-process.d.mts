// Types of supabase-process.mjs for the TypeScript files that import it (bench/load).
import type { SupabaseStack } from './postgrest-harness.ts';

/** The Supabase stand-in in its own process: the harness's methods, called over IPC (so each returns a promise). */
export type StackProcess = Pick<
  SupabaseStack,
  'url' | 'publishableKey' | 'secretKey' | 'query' | 'stopPostgrest' | 'startPostgrest' | 'close'
> & {
  pausePostgrest(): Promise<void>;
  resumePostgrest(): Promise<void>;
};

export declare function startStack(): Promise<StackProcess>;
