import { describe, expect, it, vi } from 'vitest';

import { StoreError, toStoreError } from './errors';

describe('toStoreError', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});

  it.each([
    ['support_requests_email_length', { code: 'tooLong', field: 'email', max: 254 }],
    ['support_requests_subject_length', { code: 'tooLong', field: 'subject', max: 200 }],
    ['support_requests_message_length', { code: 'tooLong', field: 'message', max: 5000 }],
    ['support_requests_email_not_blank', { code: 'blank', field: 'email' }],
    ['support_requests_subject_not_blank', { code: 'blank', field: 'subject' }],
    ['support_requests_message_not_blank', { code: 'blank', field: 'message' }],
    ['support_requests_type_check', { code: 'invalidType' }],
    ['newsletter_subscribers_email_length', { code: 'tooLong', field: 'email', max: 254 }],
    ['newsletter_subscribers_email_not_blank', { code: 'blank', field: 'email' }],
  ] as const)('shows a violated %s as a message a visitor can act on', (constraint, message) => {
    // PostgREST names the constraint only in its message; PGlite also gives it as a field.
    for (const error of [
      { code: '23514', message: `new row for relation "support_requests" violates check constraint "${constraint}"`, details: null },
      { code: '23514', message: 'new row violates a check constraint', constraint },
    ]) {
      const mapped = toStoreError(error, 'insert');
      expect(mapped).toBeInstanceOf(StoreError);
      expect(mapped).toMatchObject({ kind: 'rejected', visitorMessage: message, code: '23514' });
    }
  });

  it.each([
    ['a network failure (PostgREST client)', { message: 'TypeError: fetch failed', details: 'connect ECONNREFUSED', code: '' }],
    ['a thrown fetch TypeError', new TypeError('fetch failed')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a permission error', { code: '42501', message: 'permission denied for table support_requests' }],
    ['a unique violation', { code: '23505', message: 'duplicate key value violates unique constraint "x"' }],
    ['an unknown check', { code: '23514', message: 'new row for relation "x" violates check constraint "something_else"' }],
    ['a known name that is not a check violation', { code: '42P01', message: 'support_requests_email_length' }],
    ['a gateway error', { message: 'upstream unavailable' }],
    ['a string', 'boom'],
    ['nothing at all', undefined],
  ])('shows %s as the generic failure, with no backend detail', (_, error) => {
    const mapped = toStoreError(error, 'insert');
    expect(mapped).toMatchObject({ kind: 'unavailable', visitorMessage: { code: 'failed' } });
  });

  it.each([
    ['the per-client quota (PGlite)', { code: 'PT429', message: 'client quota exceeded' }, 'rateLimited'],
    [
      'the per-client quota (PostgREST)',
      { code: 'PT429', message: 'client quota exceeded', details: null, hint: null, status: 429 },
      'rateLimited',
    ],
    ['the site ceiling (PGlite)', { code: 'PT429', message: 'site quota exceeded' }, 'siteBusy'],
    ['the site ceiling (PostgREST)', { code: 'PT429', message: 'site quota exceeded', details: null, hint: null, status: 429 }, 'siteBusy'],
    ['a 429 from a gateway in front, with no database code', { message: 'Too Many Requests', code: '', status: 429 }, 'siteBusy'],
  ] as const)('shows the database refusing %s as the site\'s own "too many requests" message', (_, error, code) => {
    expect(toStoreError(error, 'insert')).toMatchObject({ kind: 'limited', visitorMessage: { code } });
  });

  it('does not take a constraint name from details, which quote the visitor data', () => {
    const error = {
      code: '23514',
      message: 'new row violates row-level security',
      details: 'Failing row contains (support_requests_email_length)',
    };
    expect(toStoreError(error, 'insert')).toMatchObject({ kind: 'unavailable', visitorMessage: { code: 'failed' } });
  });

  it('logs the code for the server, never the visitor data in details', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    toStoreError(
      { code: '42501', message: 'permission denied', details: 'Failing row contains (secret@example.com)' },
      'support request insert',
    );
    expect(log).toHaveBeenCalledWith(
      'support request insert failed',
      expect.objectContaining({ code: '42501', message: 'permission denied' }),
    );
    expect(JSON.stringify(log.mock.calls)).not.toContain('secret@example.com');
  });
});
