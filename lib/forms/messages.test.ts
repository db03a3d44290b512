import { describe, expect, it } from 'vitest';

import { unknownToken } from '@/schemas/fields';
import { SEED, seedMessage } from '@/testkit/seed-copy';

import { FIELD_NAMES, MESSAGE_CODES, MESSAGE_TOKENS, messageText, toMessageCopy } from './messages';

describe('form messages', () => {
  const copy = toMessageCopy(SEED.settings.formMessages, SEED.settings.fieldNames);

  it.each(MESSAGE_CODES)('the seed words %s, using only the tokens it may', (code) => {
    expect(copy.messages[code]).toMatch(/\S/);
    expect(unknownToken(copy.messages[code], MESSAGE_TOKENS[code])).toBe(true);
  });

  it.each(FIELD_NAMES)('the seed names the field %s', (field) => {
    expect(copy.fieldNames[field]).toMatch(/\S/);
  });

  it('fills {field} with the field name and {max} with the limit', () => {
    const words = { ...copy, messages: { ...copy.messages, tooLong: '{field}: {max} at most', blank: '{field} is blank' } };
    expect(messageText(words, { code: 'tooLong', field: 'subject', max: 200 })).toBe(`${copy.fieldNames.subject}: 200 at most`);
    expect(messageText(words, { code: 'blank', field: 'email' })).toBe(`${copy.fieldNames.email} is blank`);
    expect(messageText(words, { code: 'failed' })).toBe(copy.messages.failed);
  });

  it('a missing text becomes empty, never "undefined"', () => {
    expect(toMessageCopy(null, { email: 'Mail' })).toEqual({
      messages: Object.fromEntries(MESSAGE_CODES.map((code) => [code, ''])),
      fieldNames: { email: 'Mail', subject: '', message: '' },
    });
  });

  // The spec's own sentences: the seed keeps them (an editor may change them later).
  it('the seed says what the spec says for an empty field and a failed submission', () => {
    expect(seedMessage({ code: 'empty' })).toBe('Please fill in all fields');
    expect(seedMessage({ code: 'failed' })).toBe('Failed to submit request. Please try again.');
  });
});
