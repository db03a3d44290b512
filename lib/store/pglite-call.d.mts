// Types of pglite-call.mjs for the TypeScript files that import it.
import type { PGlite } from '@electric-sql/pglite';

import type { FunctionArgs, FunctionResult, StoreFunction } from './database.types';

/** The role of a call: the public key's (anon) or the secret key's (service_role). */
export type CallRole = 'anon' | 'service_role';
export declare function callAs<F extends StoreFunction>(
  db: PGlite,
  role: CallRole,
  fn: F,
  args: FunctionArgs<F>,
): Promise<FunctionResult<F>>;
