import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { SINGLETONS } from '@/schemas/index';

import { CONTENT_TYPES } from './content-types';

const EDITING_DOC = fileURLToPath(new URL('../../docs/editing-content.md', import.meta.url));

describe('CONTENT_TYPES', () => {
  it('is the filter docs/editing-content.md tells operators to give the publish webhook', () => {
    const filter = /filter\s+`_type in (\[[^\]]*\])`/.exec(readFileSync(EDITING_DOC, 'utf8'));
    expect(filter, 'docs/editing-content.md names the webhook filter').not.toBeNull();
    expect(JSON.parse(filter![1]!)).toEqual([...CONTENT_TYPES]);
  });

  it('names each singleton schema by its own type', () => {
    expect(Object.values(SINGLETONS).map((schema) => schema.name)).toEqual([...CONTENT_TYPES]);
  });
});
