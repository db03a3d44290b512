import { PGlite } from '@electric-sql/pglite';

import type { Table, TableInsert } from './database.types';

export type { Table };
/** PGlite, for the tests' and tools' own databases: from here, after the module's V8 setting. */
export { PGlite };

/** The database's quotas (supabase/migrations/*_quotas.sql), as the app's RATE_LIMIT_* settings give them. */
export type Quotas = { clientMax: number; siteMax: number; windowSeconds: number };

export declare function openStore(dir: string | undefined, options?: { fsync?: boolean; quotas?: Quotas }): Promise<PGlite>;
export declare function migrateStore(db: PGlite): Promise<string[]>;
export declare function setQuotas(db: PGlite, quotas: Quotas): Promise<void>;
export declare function insertAsAnon<T extends Table>(db: PGlite, table: T, row: TableInsert<T>, clientKey?: string | null): Promise<void>;
