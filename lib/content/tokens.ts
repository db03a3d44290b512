/**
 * Editors write {radius} in any text; it is filled in from Site settings so the
 * radius has one source. Applied to whole query results, Portable Text included.
 */
export type Tokens = { radius: number | null | undefined };

export function fillTokens<T>(value: T, tokens: Tokens): T {
  if (typeof value === 'string') {
    return (tokens.radius == null ? value : value.replaceAll('{radius}', String(tokens.radius))) as T;
  }
  if (Array.isArray(value)) return value.map((item: unknown) => fillTokens(item, tokens)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillTokens(item, tokens)])) as T;
  }
  return value;
}
