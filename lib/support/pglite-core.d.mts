import type { PGlite } from '@electric-sql/pglite';

export type Table = 'support_requests' | 'newsletter_subscribers';

export declare function openStore(dir: string | undefined, options?: { fsync?: boolean }): Promise<PGlite>;
export declare function migrateStore(db: PGlite): Promise<string[]>;
export declare function insertAsAnon(db: PGlite, table: Table, row: Record<string, string>): Promise<void>;
