import { beforeAll, describe, expect, it, vi } from 'vitest';

import { serveLanguages } from '@/lib/shared/language-gate';

import { confirmFromLink, unsubscribeFromLink } from './subscription-actions';

/** The link pages' buttons: the answer's page is in the language of the page the button was on. */
vi.mock('next/navigation', () => ({
  redirect: (url: string) => {
    throw new Redirected(url);
  },
}));
vi.mock('@/lib/store/subscriptions', () => ({
  confirmSubscription: async () => 'confirmed',
  unsubscribe: async () => 'unsubscribed',
}));

class Redirected extends Error {
  constructor(readonly url: string) {
    super(url);
  }
}

const TOKEN = 'A'.repeat(43);

async function redirectOf(action: (form: FormData) => Promise<never>, language?: string): Promise<string> {
  const form = new FormData();
  form.set('token', TOKEN);
  if (language !== undefined) form.set('language', language);
  const thrown = await action(form).catch((error: unknown) => error);
  if (!(thrown instanceof Redirected)) throw new Error(`no redirect: ${String(thrown)}`);
  return thrown.url;
}

const ENGLISH = { tag: 'en', name: 'English', direction: 'ltr' } as const;
const SPANISH = { tag: 'es', name: 'Español', direction: 'ltr' } as const;

// Each test file has a process state of its own: the settings as this process read them.
beforeAll(() => serveLanguages({ languages: [ENGLISH, SPANISH], defaultLanguage: 'en', governingLanguage: 'en' }));

describe('the link pages’ actions', () => {
  it('redirect to the answer in the language of the page they were sent from', async () => {
    expect(await redirectOf(confirmFromLink, 'es')).toBe('/es/subscription/confirmed');
    expect(await redirectOf(unsubscribeFromLink, 'es')).toBe('/es/subscription/unsubscribed');
  });

  it.each([
    ['the default language’s own tag', 'en'],
    ['a language the site does not serve', 'fr'],
    ['a tag in other letters', 'ES'],
    ['something else', '../../evil'],
    ['none', undefined],
  ])('answer in the default language, without a prefix, for %s', async (_, language) => {
    expect(await redirectOf(confirmFromLink, language)).toBe('/subscription/confirmed');
  });
});
