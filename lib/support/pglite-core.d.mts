import type { PGlite } from '@electric-sql/pglite';

import type { Table, TableInsert } from './database.types';

export type { Table };

export declare function openStore(dir: string | undefined, options?: { fsync?: boolean }): Promise<PGlite>;
export declare function migrateStore(db: PGlite): Promise<string[]>;
export declare function insertAsAnon<T extends Table>(db: PGlite, table: T, row: TableInsert<T>): Promise<void>;
