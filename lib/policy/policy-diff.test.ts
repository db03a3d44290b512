import { describe, expect, it } from 'vitest';

import { diffSections, type DiffSection, type Part, type SectionChange } from './policy-diff';

/** A section as Sanity holds it: each paragraph one block, split over two spans to check they are joined. */
function section(key: string, heading: string | null | undefined, paragraphs: string[]): DiffSection {
  return {
    _key: key,
    heading,
    body: paragraphs.map((text, i) => ({
      _type: 'block',
      _key: `${key}-${i}`,
      children: [{ text: text.slice(0, 3) }, { text: text.slice(3) }],
    })),
  };
}

function changed(change: SectionChange | undefined) {
  if (change?.status !== 'changed') throw new Error(`expected a changed section, got ${change?.status}`);
  return change;
}

/** What <del> and unchanged text read as (the earlier text), and what <ins> and unchanged read as (the later). */
function sides(parts: Part[]) {
  return {
    before: parts
      .filter((part) => part.change !== 'added')
      .map((part) => part.text)
      .join(''),
    after: parts
      .filter((part) => part.change !== 'removed')
      .map((part) => part.text)
      .join(''),
  };
}

/** Well formed: no empty part, and no two neighbours of the same kind (they would be one). */
function expectTidy(parts: Part[]) {
  for (const [i, part] of parts.entries()) {
    expect(part.text).not.toBe('');
    if (i > 0) expect(part.change).not.toBe(parts[i - 1]?.change);
  }
}

describe('what changed between two versions of the policy', () => {
  it('calls a section unchanged when its heading and paragraphs are the same, with the later texts', () => {
    const sections = [section('a', 'Who we are', ['We run the site.', 'Write to us.']), section('b', 'Cookies', ['None.'])];
    expect(diffSections(sections, structuredClone(sections))).toEqual([
      { status: 'unchanged', key: 'a', heading: 'Who we are', paragraphs: ['We run the site.', 'Write to us.'] },
      { status: 'unchanged', key: 'b', heading: 'Cookies', paragraphs: ['None.'] },
    ]);
  });

  it('shows a word changed in a paragraph as that word removed and its replacement added', () => {
    const [change] = diffSections(
      [section('a', 'Keeping', ['We keep your data for 30 days.', 'Then we delete it.'])],
      [section('a', 'Keeping', ['We keep your data for 90 days.', 'Then we delete it.'])],
    );
    expect(changed(change)).toEqual({
      status: 'changed',
      key: 'a',
      heading: [{ text: 'Keeping' }],
      paragraphs: [
        [{ text: 'We keep your data for ' }, { text: '30', change: 'removed' }, { text: '90', change: 'added' }, { text: ' days.' }],
        [{ text: 'Then we delete it.' }],
      ],
    });
  });

  it('shows a rewritten phrase as one removed run and one added run, not word by word', () => {
    const { paragraphs } = changed(
      diffSections([section('a', 'H', ['We keep your data.'])], [section('a', 'H', ['They hold all data.'])])[0],
    );
    expect(paragraphs).toEqual([
      [{ text: 'We keep your', change: 'removed' }, { text: 'They hold all', change: 'added' }, { text: ' data.' }],
    ]);
  });

  it('shows a paragraph added and one removed as whole paragraphs, the others unchanged', () => {
    const { paragraphs } = changed(
      diffSections([section('a', 'H', ['One.', 'Two.', 'Three.'])], [section('a', 'H', ['One.', 'Three.', 'Four.'])])[0],
    );
    expect(paragraphs).toEqual([
      [{ text: 'One.' }],
      [{ text: 'Two.', change: 'removed' }],
      [{ text: 'Three.' }],
      [{ text: 'Four.', change: 'added' }],
    ]);
  });

  it('pairs edited paragraphs in order and leaves the extra ones whole', () => {
    const { paragraphs } = changed(
      diffSections([section('a', 'H', ['Keep.', 'Old one.', 'Old two.'])], [section('a', 'H', ['Keep.', 'New one.'])])[0],
    );
    expect(paragraphs).toEqual([
      [{ text: 'Keep.' }],
      [{ text: 'Old', change: 'removed' }, { text: 'New', change: 'added' }, { text: ' one.' }],
      [{ text: 'Old two.', change: 'removed' }],
    ]);
  });

  it('places an added section where it is now and a removed one after the section it followed', () => {
    const before = [section('a', 'A', ['a']), section('b', 'B', ['b']), section('c', 'C', ['c']), section('d', 'D', ['d'])];
    const after = [section('new', 'New', ['n']), section('c', 'C', ['c']), section('a', 'A', ['a'])];
    const result = diffSections(before, after);
    expect(result.map((change) => `${change.status} ${change.key}`)).toEqual([
      'added new',
      'unchanged c',
      'removed d',
      'unchanged a',
      'removed b',
    ]);
    expect(result[0]).toEqual({ status: 'added', key: 'new', heading: 'New', paragraphs: ['n'] });
    expect(result[2]).toEqual({ status: 'removed', key: 'd', heading: 'D', paragraphs: ['d'] });
  });

  it('puts removed sections that came first at the top, in their order', () => {
    const before = [section('x', 'X', []), section('y', 'Y', []), section('a', 'A', [])];
    const result = diffSections(before, [section('a', 'A', [])]);
    expect(result.map((change) => `${change.status} ${change.key}`)).toEqual(['removed x', 'removed y', 'unchanged a']);
  });

  it('word-diffs a changed heading, the paragraphs unchanged', () => {
    const change = changed(
      diffSections([section('a', 'Your rights', ['Ask us.'])], [section('a', 'Your rights in the EU', ['Ask us.'])])[0],
    );
    expect(change.heading).toEqual([{ text: 'Your rights' }, { text: ' in the EU', change: 'added' }]);
    expect(change.paragraphs).toEqual([[{ text: 'Ask us.' }]]);
  });

  it('rebuilds both texts exactly from the parts, whatever the punctuation, spacing or script', () => {
    const pairs: Array<[string, string]> = [
      ['We share data, with partners.', 'We share data with  trusted partners!'],
      ['Two  spaces   here.', 'Two spaces here.'],
      ['  leading and trailing  ', 'leading and trailing'],
      ['Le café est fermé 🍪 le lundi.', 'Le café est ouvert 🍩 le lundi, 9h–17h.'],
      ['Cookies 🍪🍪 (strictly necessary)', 'Cookies 🍪 (necessary) — and “analytics”'],
      ['Line one\nline two', 'Line one\n\nline 2'],
      ['Completely different words here', 'Nothing alike at all'],
      ['Same', 'Same'],
      ['', 'Now there is text.'],
      ['Text that goes.', ''],
    ];
    for (const [before, after] of pairs) {
      const result = diffSections([section('a', before, [before || 'x'])], [section('a', after, [after || 'x'])]);
      const change = result[0];
      if (before === after) {
        expect(change?.status).toBe('unchanged');
        continue;
      }
      const { heading, paragraphs } = changed(change);
      expect(sides(heading)).toEqual({ before, after });
      expectTidy(heading);
      for (const parts of paragraphs) expectTidy(parts);
      const edited = paragraphs.find((parts) => parts.some((part) => part.change));
      if (before && after) expect(sides(edited ?? [])).toEqual({ before, after });
    }
  });

  it('takes a missing body or heading as empty, and skips blank blocks and non-text items', () => {
    const bare: DiffSection = { _key: 'a' };
    const empty: DiffSection = { _key: 'a', heading: null, body: null };
    expect(diffSections([bare], [empty])).toEqual([{ status: 'unchanged', key: 'a', heading: '', paragraphs: [] }]);

    const withImage: DiffSection = {
      _key: 'a',
      heading: '',
      body: [{ _type: 'image' }, { _type: 'block', children: [] }, { _type: 'block', children: [{}, { text: '' }] }],
    };
    expect(diffSections([bare], [withImage])).toEqual([{ status: 'unchanged', key: 'a', heading: '', paragraphs: [] }]);

    const filled = section('a', 'Now titled', ['Now with text.']);
    expect(changed(diffSections([bare], [filled])[0])).toEqual({
      status: 'changed',
      key: 'a',
      heading: [{ text: 'Now titled', change: 'added' }],
      paragraphs: [[{ text: 'Now with text.', change: 'added' }]],
    });
    expect(changed(diffSections([filled], [empty])[0])).toEqual({
      status: 'changed',
      key: 'a',
      heading: [{ text: 'Now titled', change: 'removed' }],
      paragraphs: [[{ text: 'Now with text.', change: 'removed' }]],
    });
    expect(diffSections([], [])).toEqual([]);
    expect(diffSections([], [bare])).toEqual([{ status: 'added', key: 'a', heading: '', paragraphs: [] }]);
  });
});
