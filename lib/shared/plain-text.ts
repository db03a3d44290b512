/**
 * The one rule for the editors' text: no control characters but the line break and the tab. Legal text
 * arrives pasted from word processors, which leave such characters behind (Word writes a manual line
 * break as a vertical tab); none of them shows on a page, a NUL cannot be stored in Postgres text, and
 * most of them make the Atom feed unreadable XML. A vertical tab is refused like the others, not turned
 * into a line break: the lake stores what the editor published, and a rule that rewrote text would make
 * the published document differ from the one the Studio showed.
 *
 * Plain rules, no I/O, as policy-schedule.ts's: the Studio's validation, the local lake (its publishes, raw
 * mutations and hand edits) and the webhook apply them alike. Text already in a dataset that breaks the
 * rule still renders: what writes it elsewhere (the feed, the emails, the store) strips the characters
 * with `withoutControls`.
 */

/** The controls (C0, DEL, C1: Unicode's Cc) but tab (U+0009) and line feed (U+000A). */
const CONTROL = /[^\P{Cc}\t\n]/u;
const CONTROLS = new RegExp(CONTROL.source, 'gu');

/** What an editor may know a character as, where it has a name they might meet. */
const NAMES: Readonly<Record<number, string>> = {
  0x00: 'a NUL character',
  0x08: 'a backspace',
  0x0b: 'a vertical tab (a line break pasted from Word)',
  0x0c: 'a form feed (a page break pasted from a word processor)',
  0x0d: 'a carriage return',
  0x1b: 'an escape character',
  0x7f: 'a delete character',
};

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
const described = (char: string) => `${NAMES[char.codePointAt(0)!] ?? 'a control character'} (${codePoint(char)})`;

/** `text` without the characters the rule refuses: for what writes text that was published before the rule. */
export const withoutControls = (text: string): string => text.replace(CONTROLS, '');

/** One string that breaks the rule: where it is, as a field path, and why. */
export type PlainTextProblem = { path: (string | number | { _key: string })[]; message: string };

type Value = unknown;

/** A path as the webhook's and the lake's refusals write it (`sections[_key=="a"].body`). */
export const pathText = (path: PlainTextProblem['path']) =>
  path
    .map((segment) =>
      typeof segment === 'object' ? `[_key=="${segment._key}"]` : typeof segment === 'number' ? `[${segment}]` : `.${segment}`,
    )
    .join('')
    .replace(/^\./, '');

/** The value at the same place in `before`, so that text a document already held is not refused again. */
function member(before: Value, segment: PlainTextProblem['path'][number], index: number): Value {
  if (Array.isArray(before)) {
    if (typeof segment === 'object') return before.find((item: Value) => (item as { _key?: unknown } | null)?._key === segment._key);
    return before[index];
  }
  return before !== null && typeof before === 'object' ? (before as Record<string, Value>)[segment as string] : undefined;
}

/**
 * Every string of `document` (its system fields, `_id` and the like, aside) holding a refused character,
 * with the first such character named. With `before`, a string that was already there, unchanged at the
 * same place, is let through: a hand edit of one text does not fail on another written before the rule.
 */
export function plainTextProblems(document: Value, before?: Value): PlainTextProblem[] {
  const problems: PlainTextProblem[] = [];
  const walk = (value: Value, was: Value, path: PlainTextProblem['path']) => {
    if (typeof value === 'string') {
      const found = CONTROL.exec(value);
      if (found && value !== was)
        problems.push({
          path,
          message: `${pathText(path) || 'The text'} holds ${described(found[0])}, which no page or email can show: delete it (line breaks and tabs are fine).`,
        });
    } else if (Array.isArray(value)) {
      value.forEach((item: Value, index) => {
        const key = (item as { _key?: unknown } | null)?._key;
        const segment = typeof key === 'string' ? { _key: key } : index;
        walk(item, member(was, segment, index), [...path, segment]);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [name, field] of Object.entries(value)) if (!name.startsWith('_')) walk(field, member(was, name, 0), [...path, name]);
    }
  };
  walk(document, before, []);
  return problems;
}

/** The same as a refusal's lines (the lake, the webhook, a hand edit). */
export const plainTextRefusals = (document: Value, before?: Value): string[] =>
  plainTextProblems(document, before).map(({ message }) => message);
