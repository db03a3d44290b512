import { describe, expect, it } from 'vitest';

import { parseNdjson } from './documents';

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
      'a repeated _id',
      [doc({ _id: 'a', _type: 't' }), doc({ _id: 'b', _type: 't' }), '', doc({ _id: 'a', _type: 't' })],
      'content/seed.ndjson:4 repeats the _id "a" of line 1',
    ],
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
