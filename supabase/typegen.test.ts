import { readFile } from 'node:fs/promises';

import { beforeAll, describe, expect, it } from 'vitest';

import { DATABASE_TYPES_FILE, generateDatabaseTypes } from './typegen';

describe('lib/store/database.types.ts', () => {
  let generated: string;

  beforeAll(async () => {
    generated = await generateDatabaseTypes();
  }, 60_000);

  it('is what the migrations generate (run npm run typegen after changing supabase/migrations)', async () => {
    expect(await readFile(DATABASE_TYPES_FILE, 'utf8')).toBe(generated);
  });

  it('lets the public key insert only the visitor columns', () => {
    const insertColumns = (table: string) =>
      new RegExp(`${table}: \\{\\n\\s+Row: \\{[^}]*\\};\\n\\s+Insert: \\{([^}]*)\\}`).exec(generated)?.[1]?.match(/\w+(?=\??:)/g);
    expect(insertColumns('support_requests')).toEqual(['email', 'language', 'message', 'subject', 'submission_key', 'type']);
    expect(insertColumns('newsletter_subscribers')).toEqual(['email', 'language']);
  });
});
