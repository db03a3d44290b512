/**
 * What changed between two versions of the privacy policy, section by section, for the visitor's
 * "what changed" page: the page shows removed words in <del> and added words in <ins>, so a
 * reader sees the few words an update touched instead of comparing two long texts by eye. Pure: the page
 * passes in both versions' sections and renders the parts.
 */
import { diffArrays, diffWordsWithSpace } from 'diff';

/** The shape of a section as both versions hold it; the body is Portable Text. */
export type DiffSection = {
  _key: string;
  heading?: string | null;
  body?: ReadonlyArray<{ _type: string; children?: ReadonlyArray<{ text?: string }> }> | null;
};

/** A run of text: unchanged, or added/removed. */
export type Part = { text: string; change?: 'added' | 'removed' };

export type SectionChange =
  | { status: 'unchanged'; key: string; heading: string; paragraphs: string[] }
  | { status: 'added' | 'removed'; key: string; heading: string; paragraphs: string[] }
  | { status: 'changed'; key: string; heading: Part[]; paragraphs: Part[][] };

/**
 * A section's paragraphs as plain text. Only text blocks: images and other objects have no words to
 * compare. Blank blocks are left out, as the page shows nothing for them either, so adding or removing
 * one is no change to show.
 */
function paragraphsOf(section: DiffSection): string[] {
  return (section.body ?? [])
    .filter((item) => item._type === 'block')
    .map((block) => (block.children ?? []).map((span) => span.text ?? '').join(''))
    .filter((text) => text !== '');
}

/** Appends a part, merged into the last one when of the same kind, so the page gets one <del> per run. */
function push(parts: Part[], text: string, change?: Part['change']): void {
  if (text === '') return;
  const last = parts[parts.length - 1];
  if (last && last.change === change) last.text += text;
  else parts.push(change ? { text, change } : { text });
}

/**
 * A word diff that keeps every character, so the parts rebuild both texts exactly (diffWords would drop
 * a doubled space). Its tokens alternate words and spaces, which would show "We keep" → "They hold" as
 * <del>We</del><ins>They</ins> <del>keep</del><ins>hold</ins>; so a space between two changes counts as
 * changed on both sides, and each changed run reads as one <del> phrase then one <ins> phrase.
 */
function wordParts(before: string, after: string): Part[] {
  const changes = diffWordsWithSpace(before, after);
  const parts: Part[] = [];
  let removed = '';
  let added = '';
  const flush = () => {
    push(parts, removed, 'removed');
    push(parts, added, 'added');
    removed = added = '';
  };
  changes.forEach((change, index) => {
    if (change.removed) removed += change.value;
    else if (change.added) added += change.value;
    else if ((removed || added) && index < changes.length - 1 && /^\s+$/.test(change.value)) {
      removed += change.value;
      added += change.value;
    } else {
      flush();
      push(parts, change.value);
    }
  });
  flush();
  return parts;
}

/**
 * Paragraphs aligned first, so a paragraph added in the middle shows as one <ins> paragraph rather than
 * as every later paragraph rewritten into the next. A removed run right before an added run is most
 * likely the same paragraphs edited, so they are paired in order and word-diffed.
 */
function diffParagraphs(before: string[], after: string[]): Part[][] {
  const out: Part[][] = [];
  let removed: string[] = [];
  const flushRemoved = () => {
    for (const text of removed) out.push([{ text, change: 'removed' }]);
    removed = [];
  };
  for (const change of diffArrays(before, after)) {
    if (change.removed) {
      flushRemoved();
      removed = change.value;
    } else if (change.added) {
      const paired = Math.min(removed.length, change.value.length);
      for (let i = 0; i < paired; i++) out.push(wordParts(removed[i] ?? '', change.value[i] ?? ''));
      removed = removed.slice(paired);
      flushRemoved();
      for (const text of change.value.slice(paired)) out.push([{ text, change: 'added' }]);
    } else {
      flushRemoved();
      for (const text of change.value) out.push([{ text }]);
    }
  }
  flushRemoved();
  return out;
}

function whole(status: 'unchanged' | 'added' | 'removed', section: DiffSection): SectionChange {
  return { status, key: section._key, heading: section.heading ?? '', paragraphs: paragraphsOf(section) };
}

function compare(before: DiffSection, after: DiffSection): SectionChange {
  const headingBefore = before.heading ?? '';
  const headingAfter = after.heading ?? '';
  const paragraphsBefore = paragraphsOf(before);
  const paragraphsAfter = paragraphsOf(after);
  const same =
    headingBefore === headingAfter &&
    paragraphsBefore.length === paragraphsAfter.length &&
    paragraphsBefore.every((text, i) => text === paragraphsAfter[i]);
  if (same) return whole('unchanged', after);
  return {
    status: 'changed',
    key: after._key,
    heading: wordParts(headingBefore, headingAfter),
    paragraphs: diffParagraphs(paragraphsBefore, paragraphsAfter),
  };
}

/**
 * Every section of either version, in the later version's order. A removed section stays where the reader
 * last saw it: right after the section that preceded it in the earlier version (a run of removed sections
 * keeps its order behind the same one), or first if nothing preceded it.
 */
export function diffSections(before: readonly DiffSection[], after: readonly DiffSection[]): SectionChange[] {
  const earlier = new Map(before.map((section) => [section._key, section]));
  const laterKeys = new Set(after.map((section) => section._key));
  // Removed sections by the key of the kept section they follow; undefined for "before everything".
  const removedAfter = new Map<string | undefined, DiffSection[]>();
  let anchor: string | undefined;
  for (const section of before) {
    if (laterKeys.has(section._key)) {
      anchor = section._key;
      continue;
    }
    const run = removedAfter.get(anchor) ?? [];
    run.push(section);
    removedAfter.set(anchor, run);
  }
  const out: SectionChange[] = (removedAfter.get(undefined) ?? []).map((section) => whole('removed', section));
  for (const section of after) {
    const old = earlier.get(section._key);
    out.push(old ? compare(old, section) : whole('added', section));
    for (const removed of removedAfter.get(section._key) ?? []) out.push(whole('removed', removed));
    removedAfter.delete(section._key); // once, even if a key were repeated
  }
  return out;
}
