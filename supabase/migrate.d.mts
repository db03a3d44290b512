import type { PGlite } from '@electric-sql/pglite';

export declare function migrate(db: PGlite, supabaseDir: string): Promise<string[]>;
