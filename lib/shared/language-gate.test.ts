import { afterEach, describe, expect, it } from 'vitest';

import { mayServeLanguage, serveLanguages, servedLanguage } from './language-gate';

/** The gate's state is the process's (globalThis): each test starts from a server that has read nothing yet. */
afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('school-site.served-languages')];
});

const SITE = {
  languages: [
    { tag: 'en', name: 'English', direction: 'ltr' },
    { tag: 'es', name: 'Español', direction: 'ltr' },
  ],
  defaultLanguage: 'en',
  governingLanguage: 'en',
} as const;

describe('which first segments a page may live under', () => {
  it('none before the settings are read: a page rendered to find out would be kept under whatever was typed', () => {
    for (const tag of ['es', 'zz', 'fr']) expect(mayServeLanguage(tag), tag).toBe(false);
    expect(servedLanguage('es')).toBe('');
  });

  it("a listed language's tag once read; never the default's own, an unlisted one, or another spelling", () => {
    serveLanguages(SITE);
    expect(mayServeLanguage('es')).toBe(true);
    for (const tag of ['en', 'zz', 'ES', 'es-ZZ']) expect(mayServeLanguage(tag), tag).toBe(false);
    expect(servedLanguage('es')).toBe('es');
    expect(servedLanguage('zz')).toBe('');
  });
});
