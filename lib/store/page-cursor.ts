/**
 * Keyset cursors as the browser holds them: the keys of a page's last row as base64url JSON, opaque to the
 * browser and checked here before they reach a query, so a forged cursor is a CursorError (an answer of
 * 400), never SQL. Pages are keyset pages, never offsets: a page costs the same at row 100 000 as at row 0.
 */

export class CursorError extends Error {
  constructor() {
    super('the cursor is not one this server gave');
    this.name = 'CursorError';
  }
}

/** What a row's key may hold: an ISO time with microseconds, a uuid, a positive integer. */
export const CURSOR_KEYS = {
  time: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  id: /^[1-9]\d{0,15}$/,
} as const;

type KeyKind = keyof typeof CURSOR_KEYS;

export const encodeCursor = (keys: Record<string, string>): string => Buffer.from(JSON.stringify(keys)).toString('base64url');

/** The keys of `cursor`, each of the kind `shape` names, or a CursorError. */
export function decodeCursor<S extends Record<string, KeyKind>>(cursor: string, shape: S): { [K in keyof S]: string } {
  let keys: unknown;
  try {
    if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new CursorError();
    keys = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new CursorError();
  }
  if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) throw new CursorError();
  const names = Object.keys(shape);
  const given = keys as Record<string, unknown>;
  if (Object.keys(given).length !== names.length) throw new CursorError();
  for (const name of names) {
    const value = given[name];
    if (typeof value !== 'string' || !CURSOR_KEYS[shape[name]!].test(value)) throw new CursorError();
  }
  return given as { [K in keyof S]: string };
}
