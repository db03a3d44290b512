import { defineLocaleResourceBundle, useTranslation } from 'sanity';

/** The back office's own namespace of Studio words: its keys never clash with Sanity's or another plugin's. */
export const BACK_OFFICE_NS = 'back-office';

/** US English, loaded when the tool first renders (the Studio has no other locale installed). */
export const backOfficeEnglish = defineLocaleResourceBundle({
  locale: 'en-US',
  namespace: BACK_OFFICE_NS,
  resources: () => import('./words.en-US'),
});

export type Words = ReturnType<typeof useTranslation>['t'];

/** The tool's words in the Studio's language. */
export const useWords = (): Words => useTranslation(BACK_OFFICE_NS).t;

/** A value the store names (a status, a kind, a type) in words, or as stored where no word is listed for it. */
export const named = (t: Words, group: 'status' | 'kind' | 'type' | 'action', value: string): string =>
  t(`${group}.${value}`, { defaultValue: value });
