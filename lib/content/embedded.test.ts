import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { applyPerspective, documentProblems, parseNdjson, queryDataset } from './embedded';

const doc = (fields: Record<string, unknown>) => JSON.stringify(fields);

describe('parseNdjson', () => {
  it('returns one document per non-blank line', () => {
    const text = [doc({ _id: 'a', _type: 't', n: 1 }), '', '   ', doc({ _id: 'b', _type: 't' }), ''].join('\n');
    expect(parseNdjson(text, 'x.ndjson')).toEqual([
      { _id: 'a', _type: 't', n: 1 },
      { _id: 'b', _type: 't' },
    ]);
  });

  // Line numbers count blank lines too, so they match what an editor shows.
  it.each([
    ['bad JSON', [doc({ _id: 'a', _type: 't' }), '', '{"_id": "b", "_type": '], 'content/seed.ndjson:3 is not valid JSON'],
    [
      'a line without _id',
      [doc({ _id: 'a', _type: 't' }), doc({ _type: 't' })],
      'content/seed.ndjson:2 is not a Sanity document (needs string _id and _type)',
    ],
    ['a line without _type', [doc({ _id: 'a' })], 'content/seed.ndjson:1 is not a Sanity document (needs string _id and _type)'],
    ['a non-string _id', [doc({ _id: 7, _type: 't' })], 'content/seed.ndjson:1 is not a Sanity document (needs string _id and _type)'],
    [
      'a line that is not an object',
      [doc({ _id: 'a', _type: 't' }), 'null'],
      'content/seed.ndjson:2 is not a Sanity document (needs string _id and _type)',
    ],
  ])('names the file and line for %s', (_case, lines, message) => {
    expect(() => parseNdjson(lines.join('\n'), 'content/seed.ndjson')).toThrow(message);
  });

  it('keeps the JSON parser error as the cause', () => {
    let caught: unknown;
    try {
      parseNdjson('{oops}', 'f.ndjson');
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).toBe('f.ndjson:1 is not valid JSON');
    expect((caught as Error).cause).toBeInstanceOf(SyntaxError);
  });
});

describe('applyPerspective', () => {
  const documents = [
    { _id: 'page', _type: 'page', title: 'published' },
    { _id: 'drafts.page', _type: 'page', title: 'draft' },
    { _id: 'drafts.new', _type: 'page', title: 'never published' },
    { _id: 'versions.r1.page', _type: 'page', title: 'release' },
    { _id: 'other', _type: 'page', title: 'other' },
  ];

  it.each([
    ['raw', ['page:published', 'drafts.page:draft', 'drafts.new:never published', 'versions.r1.page:release', 'other:other']],
    ['published', ['page:published', 'other:other']],
    ['drafts', ['page:draft', 'other:other', 'new:never published']],
  ] as const)('%s', (perspective, expected) => {
    expect(applyPerspective(documents, perspective).map((d) => `${d._id}:${d.title as string}`)).toEqual(expected);
  });
});

describe('queryDataset reads the file again after it changes on disk', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'embedded-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const QUERY = '*[_type == "page"][0].title';
  const write = (file: string, title: string) => writeFile(file, doc({ _id: 'page', _type: 'page', title }) + '\n');

  it('when the size changes', async () => {
    const file = join(dir, 'size.ndjson');
    await write(file, 'First text');
    expect(await queryDataset(file, QUERY, {}, 'published')).toBe('First text');
    await write(file, 'Second, longer text');
    expect(await queryDataset(file, QUERY, {}, 'published')).toBe('Second, longer text');
  });

  it('when only the modification time changes (same size)', async () => {
    const file = join(dir, 'mtime.ndjson');
    await write(file, 'Text AAAA');
    expect(await queryDataset(file, QUERY, {}, 'published')).toBe('Text AAAA');
    const before = await stat(file);
    await write(file, 'Text BBBB');
    // Same size, and the rewrite may land in the same mtime tick: move mtime on explicitly.
    const later = new Date(before.mtimeMs + 5000);
    await utimes(file, later, later);
    expect((await stat(file)).size).toBe(before.size);
    expect(await queryDataset(file, QUERY, {}, 'published')).toBe('Text BBBB');
  });

  it('and not while mtime and size stay the same (the cache key)', async () => {
    const file = join(dir, 'cached.ndjson');
    // A whole-second mtime, so setting it again restores it exactly.
    const pinned = new Date('2026-01-01T00:00:00Z');
    await write(file, 'Text CCCC');
    await utimes(file, pinned, pinned);
    expect(await queryDataset(file, QUERY, {}, 'published')).toBe('Text CCCC');
    await write(file, 'Text DDDD');
    await utimes(file, pinned, pinned);
    expect(await queryDataset(file, QUERY, {}, 'published')).toBe('Text CCCC');
  });

  it('names the file when its content is broken', async () => {
    const file = join(dir, 'broken.ndjson');
    await writeFile(file, doc({ _id: 'page', _type: 'page' }) + '\n' + doc({ _type: 'page' }) + '\n');
    await expect(queryDataset(file, QUERY, {}, 'published')).rejects.toThrow(`${file}:2 is not a Sanity document`);
  });

  it('passes query parameters through', async () => {
    const file = join(dir, 'params.ndjson');
    await writeFile(file, [doc({ _id: 'a', _type: 'page', title: 'A' }), doc({ _id: 'b', _type: 'page', title: 'B' })].join('\n'));
    expect(await queryDataset(file, '*[_id == $id][0].title', { id: 'b' }, 'published')).toBe('B');
  });
});

// Keeping the last good version is last-good.ts's job; the source only says what is wrong.
describe('documentProblems names what cannot be rendered', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'embedded-good-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const SEED = join(__dirname, '..', '..', 'seed', 'production.ndjson');
  const NAME = '*[_type == "siteSettings"][0].productName';
  const HEADLINE = '*[_type == "landingPage"][0].hero.headline';

  async function seedWith(file: string, edit: (doc: Record<string, any>) => Record<string, any> | null) {
    const { readFile } = await import('node:fs/promises');
    const docs = parseNdjson(await readFile(SEED, 'utf8')).map((d) => edit(structuredClone(d) as Record<string, any>));
    await writeFile(
      file,
      docs
        .filter(Boolean)
        .map((d) => JSON.stringify(d))
        .join('\n') + '\n',
    );
  }
  const bump = async (file: string) => {
    const later = new Date(Date.now() + 10_000 + Math.random() * 10_000);
    await utimes(file, later, later);
  };

  it('a malformed file is an error naming the line, for queries and checks alike', async () => {
    const file = join(dir, 'malformed.ndjson');
    await seedWith(file, (d) => d);
    expect(await documentProblems(file, 'siteSettings')).toEqual([]);
    await writeFile(file, '{"_id": "siteSettings", "_type": \n');
    await bump(file);
    await expect(queryDataset(file, NAME, {}, 'published')).rejects.toThrow(`${file}:1 is not valid JSON`);
    await expect(documentProblems(file, 'siteSettings')).rejects.toThrow(`${file}:1 is not valid JSON`);
  });

  it('per document: a broken or missing one is named while the others render their new text', async () => {
    const file = join(dir, 'documents.ndjson');
    await seedWith(file, (d) => {
      if (d._type === 'siteSettings') delete d.productName;
      if (d._type === 'landingPage') d.hero.headline = 'A new headline';
      return d;
    });
    expect((await documentProblems(file, 'siteSettings')).join('\n')).toMatch(/^productName: /);
    expect(await documentProblems(file, 'landingPage')).toEqual([]);
    expect(await queryDataset(file, HEADLINE, {}, 'published')).toBe('A new headline');

    await seedWith(file, (d) => (d._type === 'siteSettings' ? null : d));
    await bump(file);
    expect(await documentProblems(file, 'siteSettings')).toEqual(['the document is missing']);
  });
});
