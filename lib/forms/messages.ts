// A relative path with its extension: Node scripts and the specs (testkit/seed-copy.ts) import this module too.
import { fillTokens } from '../shared/tokens.ts';

/**
 * Every message the forms can show, as a code. Validation, the store
 * and the actions answer with codes; the words are the editor's, in Site settings → Form messages,
 * and the UI turns a code into them (`messageText`). Nothing below is visible text.
 */
export const MESSAGE_CODES = [
  'empty',
  'invalidEmail',
  'invisibleEmail',
  'invalidType',
  'unsupported',
  'tooLong',
  'blank',
  'rateLimited',
  'siteBusy',
  'unreadable',
  'failed',
] as const;
export type MessageCode = (typeof MESSAGE_CODES)[number];

/** The fields a message can name ("{field} must be at most {max} characters."). */
export const FIELD_NAMES = ['email', 'subject', 'message'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

/** A message with what its text fills in: `tooLong` names a field and its limit, `blank` a field. */
export type FormMessage =
  | { code: Exclude<MessageCode, 'tooLong' | 'blank'> }
  | { code: 'tooLong'; field: FieldName; max: number }
  | { code: 'blank'; field: FieldName };

/** The generic failure: whatever went wrong is not the visitor's to fix, and trying again may work. */
export const FAILED: FormMessage = { code: 'failed' };

/** The tokens each message text may use, for the Studio's description and validation. */
export const MESSAGE_TOKENS: Record<MessageCode, readonly string[]> = {
  empty: [],
  invalidEmail: [],
  invisibleEmail: [],
  invalidType: [],
  unsupported: [],
  tooLong: ['field', 'max'],
  blank: ['field'],
  rateLimited: [],
  siteBusy: [],
  unreadable: [],
  failed: [],
};

/** The words of every code and field name, as the dataset holds them. */
export type MessageCopy = { messages: Record<MessageCode, string>; fieldNames: Record<FieldName, string> };

type Texts = Partial<Record<string, string | null>> | null | undefined;

/** The copy from Site settings' form messages and field names (query results); a missing text is empty, as the schema forbids it. */
export function toMessageCopy(messages: Texts, fieldNames: Texts): MessageCopy {
  const pick = <K extends string>(keys: readonly K[], texts: Texts) =>
    Object.fromEntries(keys.map((key) => [key, texts?.[key] ?? ''])) as Record<K, string>;
  return { messages: pick(MESSAGE_CODES, messages), fieldNames: pick(FIELD_NAMES, fieldNames) };
}

/** What a visitor reads for `value`. */
export function messageText(copy: MessageCopy, value: FormMessage): string {
  const text = copy.messages[value.code];
  if (value.code === 'tooLong') return fillTokens(text, { field: copy.fieldNames[value.field], max: value.max });
  if (value.code === 'blank') return fillTokens(text, { field: copy.fieldNames[value.field] });
  return text;
}
