import { describe, expect, it } from 'vitest';

import { createLastGood } from './last-good';

describe('createLastGood', () => {
  const quiet = () => {};
  const missing = () => Promise.reject(new Error('the a document is missing'));

  it('passes good answers through and remembers them', async () => {
    const withLastGood = createLastGood(quiet);
    expect(await withLastGood('a', async () => 'one')).toBe('one');
    expect(await withLastGood('a', async () => 'two')).toBe('two');
  });

  it('answers with the last good value when the source throws or the document is missing or broken', async () => {
    const logged: string[] = [];
    const withLastGood = createLastGood((message) => logged.push(message));
    await withLastGood('a', async () => ({ title: 'good' }));
    expect(await withLastGood('a', () => Promise.reject(new Error('HTTP 503')))).toEqual({ title: 'good' });
    expect(await withLastGood('a', missing)).toEqual({ title: 'good' });
    expect(logged).toHaveLength(2);
  });

  it('fails as the source fails when there was never a good answer, per key', async () => {
    const withLastGood = createLastGood(quiet);
    await withLastGood('a', async () => 'good');
    await expect(withLastGood('b', () => Promise.reject(new Error('HTTP 503')))).rejects.toThrow('HTTP 503');
    await expect(withLastGood('b', missing)).rejects.toThrow('missing');
  });
});
