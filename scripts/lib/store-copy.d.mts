// Types of store-copy.mjs for the TypeScript files that import it (scripts/requests.ts, browser tests).
import type { PGlite } from '@electric-sql/pglite';

export declare function withStoreCopy<T>(storeDir: string, read: (db: PGlite) => Promise<T>): Promise<T>;
