import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { serveLanguages } from '@/lib/shared/language-gate';

import { submitSupportRequest, subscribe } from './actions';

/** The forms' actions store the page's language by one rule: a request and a sign-up store the same value. */

const store = vi.hoisted(() => {
  const save = () => vi.fn<(row: { language?: string }) => Promise<void>>(async () => {});
  return { saveSupportRequest: save(), saveSubscriber: save() };
});
vi.mock('@/lib/store/store', () => store);
vi.mock('@/lib/store/nudge', () => ({ nudgeMailSender: () => {} }));
vi.mock('next/headers', () => ({ headers: async () => new Headers({ 'x-forwarded-for': '203.0.113.5' }) }));

const REQUEST = { email: 'student@example.edu', subject: 'Feed is empty', message: 'Nothing shows near me.', type: 'issue' };

function form(fields: Record<string, string>, language: string | undefined): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  if (language !== undefined) data.set('language', language);
  return data;
}

/** The language each action hands the store for a form that names `language`. */
async function storedLanguages(language: string | undefined) {
  expect(await submitSupportRequest({ status: 'idle' }, form(REQUEST, language))).toEqual({ status: 'success' });
  expect(await subscribe({ status: 'idle' }, form({ email: 'reader@example.com' }, language))).toEqual({ status: 'success' });
  return {
    request: store.saveSupportRequest.mock.lastCall?.[0],
    subscriber: store.saveSubscriber.mock.lastCall?.[0],
  };
}

beforeAll(() => {
  // Many sends from one address: the in-process limit is not what this is about.
  vi.stubEnv('RATE_LIMIT_MAX', '1000');
  serveLanguages({
    languages: ['en', 'es'].map((tag) => ({ tag, name: tag, direction: 'ltr' as const })),
    defaultLanguage: 'en',
    governingLanguage: 'en',
  });
});
beforeEach(() => vi.clearAllMocks());

describe('the language a request and a sign-up store', () => {
  it('is the tag of a language the site serves other than the default', async () => {
    const { request, subscriber } = await storedLanguages('es');
    expect(request).toMatchObject({ language: 'es' });
    expect(subscriber).toMatchObject({ language: 'es' });
  });

  it.each([
    ['none', undefined],
    ["the default language's own tag", 'en'],
    ['a tag the site does not serve', 'fr'],
    ['a made-up tag', 'zz'],
    ['undetermined', 'und'],
    ['anything but a tag', 'es; drop table'],
  ])("is '', the default language, for %s, in both tables", async (_, language) => {
    const { request, subscriber } = await storedLanguages(language);
    expect(request).toMatchObject({ language: '' });
    expect(subscriber).toMatchObject({ language: '' });
  });
});
