import { readFile } from 'node:fs/promises';

import { extractSchema } from '@sanity/schema/_internal';
import { createSchema } from 'sanity';
import { expect, it } from 'vitest';

import { schemaTypes } from '@/schemas';

/**
 * `sanity schema extract` (npm run typegen) writes exactly this: the Studio's schema through Sanity's own
 * extractSchema, as JSON with two-space indents. Checked here, in a second, rather than by running the
 * CLI, which bundles the whole Studio config for it (about 28 s on a 2-core machine). sanity.types.ts
 * is generated from this file; npm test's typegen step checks that half.
 */
it('schema.json is the extracted schema (run npm run typegen after changing schemas/)', async () => {
  const extracted = extractSchema(createSchema({ name: 'default', types: schemaTypes }), { enforceRequiredFields: false });
  expect(await readFile('schema.json', 'utf8')).toBe(`${JSON.stringify(extracted, null, 2)}\n`);
});
