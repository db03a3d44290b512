import { applyPatch, incremental } from 'mendoza';
import { describe, expect, it } from 'vitest';

import { effectsOf, mendozaPatch } from './mendoza.ts';

/** A small deterministic generator, so that a failure can be replayed from its seed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const WORDS = ['', 'a', 'policy', 'Ünïcødé', '😀 emoji', 'the same text', 'déjà vu', '\u0000', 'x'.repeat(40)];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 4 : 7));
  if (pick === 0) return null;
  if (pick === 1) return next() > 0.5;
  if (pick === 2) return Math.floor(next() * 100);
  if (pick === 3) return WORDS[Math.floor(next() * WORDS.length)]! + WORDS[Math.floor(next() * WORDS.length)]!;
  if (pick === 4)
    return Array.from({ length: Math.floor(next() * 4) }, (_, i) => ({
      _key: `k${Math.floor(next() * 5)}${i}`,
      text: value(next, depth + 1),
    }));
  if (pick === 5) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`f${Math.floor(next() * 6)}${i % 2}`, value(next, depth + 1)]),
  );
}

/** `doc` with a few of its parts changed, added or removed, at any depth. */
function mutate(doc: unknown, next: () => number, depth = 0): unknown {
  if (Array.isArray(doc)) {
    const copy = doc.map((item) => (next() < 0.4 ? mutate(item, next, depth + 1) : item)).filter(() => next() > 0.15);
    if (next() < 0.3) copy.splice(Math.floor(next() * (copy.length + 1)), 0, value(next, depth + 1));
    if (next() < 0.2) copy.reverse();
    return copy;
  }
  if (typeof doc === 'string') {
    const at = Math.floor(next() * (doc.length + 1));
    return next() < 0.5 ? `${doc.slice(0, at)}${WORDS[Math.floor(next() * WORDS.length)]}${doc.slice(at)}` : doc.slice(0, at);
  }
  if (typeof doc === 'object' && doc !== null) {
    const entries = Object.entries(doc)
      .filter(() => next() > 0.15)
      .map(([key, item]) => [key, next() < 0.5 ? mutate(item, next, depth + 1) : item] as const);
    if (next() < 0.3) entries.push([`n${Math.floor(next() * 9)}`, value(next, depth + 1)]);
    return Object.fromEntries(entries);
  }
  return next() < 0.5 ? value(next, depth) : doc;
}

const document = (fields: unknown) => ({ _id: 'privacyPolicy', _type: 'privacyPolicy', ...(fields as object) });

describe('mendoza patches', () => {
  it('turn any document into any edit of it, and back, as the Studio applies them (simple and incremental)', () => {
    for (let seed = 1; seed <= 3000; seed += 1) {
      const next = random(seed);
      const left = document(value(next, 0) ?? {});
      const right = document(mutate(left, next));
      const { apply, revert } = effectsOf(left, right);
      expect(applyPatch(left, apply), `seed ${seed}`).toEqual(right);
      expect(applyPatch(right, revert), `seed ${seed}`).toEqual(left);
      const tracked = incremental.applyPatch(incremental.wrap(left, 0), apply, 1);
      expect(incremental.unwrap(tracked), `seed ${seed}`).toEqual(right);
    }
  });

  it('create and delete a document whole, without its _rev', () => {
    const doc = { _id: 'a', _type: 't', _rev: 'r1', title: 'T' };
    expect(effectsOf(null, doc)).toEqual({ apply: [0, { _id: 'a', _type: 't', title: 'T' }], revert: [0, null] });
    expect(effectsOf(doc, null)).toEqual({ apply: [0, null], revert: [0, { _id: 'a', _type: 't', title: 'T' }] });
  });

  it('credit only what changed: an untouched field keeps the earlier transaction as its author', () => {
    const v1 = {
      _id: 'p',
      _type: 'p',
      title: 'Privacy policy',
      sections: [
        { _key: 'a', heading: 'Data' },
        { _key: 'b', heading: 'Rights' },
      ],
    };
    const v2 = { ...v1, title: 'Privacy policy (2026)' };
    const v3 = { ...v2, sections: [v2.sections[0]!, { _key: 'b', heading: 'Your rights' }] };
    let value = incremental.wrap<string>(v1, 'seed');
    value = incremental.applyPatch(value, mendozaPatch(v1, v2), 'title edit');
    value = incremental.applyPatch(value, mendozaPatch(v2, v3), 'section edit');
    const fields = (value.content as incremental.ObjectContent<string>).fields;
    const title = fields.title!.content as incremental.StringContent<string>;
    expect(title.parts.map((part) => [part.value, part.startMeta])).toEqual([
      ['Privacy policy', 'seed'],
      [' (2026)', 'title edit'],
    ]);
    const sections = (fields.sections!.content as incremental.ArrayContent<string>).elements;
    expect(sections[0]!.startMeta).toBe('seed');
    const heading = (sections[1]!.content as incremental.ObjectContent<string>).fields.heading!
      .content as incremental.StringContent<string>;
    expect(heading.parts.map((part) => [part.value, part.startMeta])).toEqual([
      ['Your r', 'section edit'],
      ['ights', 'seed'],
    ]);
  });

  it('write an emptied string or array whole (a blank with nothing appended would end as null)', () => {
    const left = { _id: 'a', _type: 't', s: 'text', list: [1, 2] };
    const right = { _id: 'a', _type: 't', s: '', list: [] };
    expect(applyPatch(left, mendozaPatch(left, right))).toEqual(right);
  });
});
