/**
 * Editors write {name} tokens in texts where a value from elsewhere belongs: {radius}, {answeredDays} and
 * {unansweredDays} from Site settings (so each number has one source: lib/content/settings-tokens.ts),
 * {productName}, and in form messages {field} and {max}. Applied to a
 * string or to whole query results, Portable Text included. A token with no value (null or undefined)
 * stays as written, and unknown tokens are left alone.
 */
export type Tokens = Readonly<Record<string, string | number | null | undefined>>;

const TOKEN = /\{(\w+)\}/g;

const valueOf = (tokens: Tokens, name: string) => (Object.hasOwn(tokens, name) ? tokens[name] : undefined);

function fillString(text: string, tokens: Tokens): string {
  return text.replace(TOKEN, (whole, name: string) => {
    const value = valueOf(tokens, name);
    return value == null ? whole : String(value);
  });
}

/**
 * A sentence with its values filled in as parts of their own, for a page to isolate (<bdi>): a name or an
 * address keeps its own direction inside a sentence of another script (an English product name in an
 * Arabic line), and the punctuation beside it stays the sentence's.
 */
export type Sentence = readonly (string | { isolate: string })[];

export function fillSentence(text: string, tokens: Tokens): Sentence {
  const parts: (string | { isolate: string })[] = [];
  let end = 0;
  for (const match of text.matchAll(TOKEN)) {
    const value = valueOf(tokens, match[1]!);
    if (value == null) continue;
    parts.push(text.slice(end, match.index), { isolate: String(value) });
    end = match.index + match[0].length;
  }
  parts.push(text.slice(end));
  return parts.filter((part) => part !== '');
}

export function fillTokens<T>(value: T, tokens: Tokens): T {
  if (typeof value === 'string') return fillString(value, tokens) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => fillTokens(item, tokens)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillTokens(item, tokens)])) as T;
  }
  return value;
}
