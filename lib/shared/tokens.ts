/**
 * Editors write {name} tokens in texts where a value from elsewhere belongs: {radius} from Site settings
 * (so the radius has one source), {productName}, and in form messages {field} and {max}. Applied to a
 * string or to whole query results, Portable Text included. A token with no value (null or undefined)
 * stays as written, and unknown tokens are left alone.
 */
export type Tokens = Readonly<Record<string, string | number | null | undefined>>;

function fillString(text: string, tokens: Tokens): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = Object.hasOwn(tokens, name) ? tokens[name] : undefined;
    return value == null ? whole : String(value);
  });
}

export function fillTokens<T>(value: T, tokens: Tokens): T {
  if (typeof value === 'string') return fillString(value, tokens) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => fillTokens(item, tokens)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillTokens(item, tokens)])) as T;
  }
  return value;
}
