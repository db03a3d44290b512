import { beforeAll, describe, expect, it } from 'vitest';

import { serveLanguages } from '@/lib/shared/language-gate';

import { formLanguage, isBot, LANGUAGE_FIELD, LIMITS, validateSubscriber, validateSupportRequest } from './validation';

const valid = { email: 'student@example.edu', subject: 'App crashes', message: 'It crashes when I open the feed.', type: 'issue' };

describe('validateSupportRequest', () => {
  it('accepts a complete request and trims every field', () => {
    expect(validateSupportRequest({ ...valid, email: '  student@example.edu ', subject: ' App crashes\n' })).toEqual({
      ok: true,
      value: valid,
    });
  });

  it("leaves the page's language to formLanguage: it is never a reason to refuse", () => {
    expect(validateSupportRequest({ ...valid, language: 'es; drop table' })).toEqual({ ok: true, value: valid });
  });

  it('reads FormData the same way as plain objects', () => {
    const form = new FormData();
    for (const [key, value] of Object.entries(valid)) form.set(key, value);
    expect(validateSupportRequest(form)).toEqual({ ok: true, value: valid });
  });

  it.each(['email', 'subject', 'message', 'type'] as const)('asks to fill in all fields when %s is empty or blank', (field) => {
    expect(validateSupportRequest({ ...valid, [field]: '' })).toEqual({ ok: false, message: { code: 'empty' } });
    expect(validateSupportRequest({ ...valid, [field]: ' \t\n ' })).toEqual({ ok: false, message: { code: 'empty' } });
    const rest: Record<string, string> = { ...valid };
    delete rest[field];
    expect(validateSupportRequest(rest)).toEqual({ ok: false, message: { code: 'empty' } });
  });

  it.each([
    'not-an-email',
    'a@b',
    'two@@example.com',
    'a b@example.com',
    '<a@example.com>',
    'a@..co',
    'a@b..co',
    `${'x'.repeat(65)}@example.com`,
  ])('refuses the address %j', (email) => {
    expect(validateSupportRequest({ ...valid, email })).toEqual({ ok: false, message: { code: 'invalidEmail' } });
  });

  it('refuses a line break in the address (header injection) as a control character', () => {
    expect(validateSupportRequest({ ...valid, email: 'x@example.com\nBcc: y@example.com' })).toEqual({
      ok: false,
      message: { code: 'invisibleEmail' },
    });
  });

  it('refuses a type outside issue, feedback and feature', () => {
    expect(validateSupportRequest({ ...valid, type: 'bug' })).toEqual({ ok: false, message: { code: 'invalidType' } });
  });

  it.each([
    ['email', `${'a'.repeat(250)}@example.com`, 254],
    ['subject', 's'.repeat(LIMITS.subject + 1), 200],
    ['message', 'm'.repeat(LIMITS.message + 1), 5000],
  ] as const)('refuses an overlong %s, naming the field and its limit', (field, value, max) => {
    expect(validateSupportRequest({ ...valid, [field]: value })).toEqual({ ok: false, message: { code: 'tooLong', field, max } });
  });

  it('counts characters as Postgres does, so 150 emoji fit a 200-character subject', () => {
    expect(validateSupportRequest({ ...valid, subject: '😀'.repeat(150) }).ok).toBe(true);
    expect(validateSupportRequest({ ...valid, subject: '😀'.repeat(201) })).toEqual({
      ok: false,
      message: { code: 'tooLong', field: 'subject', max: 200 },
    });
  });

  it('refuses a NUL character, which Postgres text cannot hold, with a clear message', () => {
    expect(validateSupportRequest({ ...valid, message: 'a\u0000b' })).toEqual({ ok: false, message: { code: 'unsupported' } });
  });

  // Control (C0, C1), bidirectional and zero-width characters: what the issue lists, one by one.
  const INVISIBLE = [
    ...['\u0001', '\u001b', '\u007f', '\u0085', '\u009f'],
    ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'],
    ...['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'],
  ];
  it.each(INVISIBLE.map((character) => [`U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`, character]))(
    'refuses an address containing %s with a clear message, in both forms',
    (_name, character) => {
      const email = `stu${character}dent@exam${character}ple.edu`;
      expect(validateSupportRequest({ ...valid, email })).toEqual({ ok: false, message: { code: 'invisibleEmail' } });
      expect(validateSubscriber({ email })).toEqual({ ok: false, message: { code: 'invisibleEmail' } });
    },
  );

  it.each(INVISIBLE.filter((character) => character !== '\ufeff'))('keeps %j in the subject and message verbatim', (character) => {
    const subject = `Sub${character}ject`;
    const message = `Mes${character}sage`;
    expect(validateSupportRequest({ ...valid, subject, message })).toEqual({
      ok: true,
      value: { ...valid, subject, message },
    });
  });

  it('accepts international addresses: letters of any script are not invisible', () => {
    for (const email of ['josé@exämple.com', 'пользователь@пример.рф', '用户@例子.广告', "o'neil+tag@example.com"]) {
      expect(validateSubscriber({ email })).toEqual({ ok: true, value: { email } });
    }
  });

  it('accepts values exactly at the limits', () => {
    expect(validateSupportRequest({ ...valid, subject: 's'.repeat(LIMITS.subject), message: 'm'.repeat(LIMITS.message) }).ok).toBe(true);
    const longest = `${'x'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(57)}.com`;
    expect([...longest].length).toBe(LIMITS.email);
    expect(validateSubscriber({ email: longest }).ok).toBe(true);
  });
});

describe('validateSubscriber', () => {
  it('accepts an address and refuses an empty or malformed one', () => {
    expect(validateSubscriber({ email: ' A@Example.com ' })).toEqual({ ok: true, value: { email: 'A@Example.com' } });
    expect(validateSubscriber({ email: '' })).toEqual({ ok: false, message: { code: 'invalidEmail' } });
    expect(validateSubscriber({ email: 'nope' })).toEqual({ ok: false, message: { code: 'invalidEmail' } });
  });
});

describe('formLanguage', () => {
  // The settings as this process read them (each test file has its own): English by default, Spanish and Chinese too.
  beforeAll(() =>
    serveLanguages({
      languages: ['en', 'es', 'zh-Hant'].map((tag) => ({ tag, name: tag, direction: 'ltr' as const })),
      defaultLanguage: 'en',
      governingLanguage: 'en',
    }),
  );

  it.each(['es', 'zh-Hant'])('keeps %s, a language the site serves other than the default', (tag) => {
    expect(formLanguage({ [LANGUAGE_FIELD]: tag })).toBe(tag);
  });

  it.each([
    ['none', undefined],
    ['an empty one', ''],
    ["the default language's own tag", 'en'],
    ['a tag the site does not serve', 'fr'],
    ['a made-up tag', 'zz'],
    ['undetermined', 'und'],
    ['a tag in other letters', 'ES'],
    ['anything but a tag', 'es; drop table'],
  ])("stores %s as the default language's ''", (_, language) => {
    const form = new FormData();
    if (language !== undefined) form.set(LANGUAGE_FIELD, language);
    expect(formLanguage(form)).toBe('');
  });
});

describe('isBot', () => {
  it('is true only when the hidden field is filled', () => {
    expect(isBot({ website: '' })).toBe(false);
    expect(isBot({})).toBe(false);
    expect(isBot({ website: 'http://spam.example' })).toBe(true);
  });
});
