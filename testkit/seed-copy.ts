import { readFileSync } from 'node:fs';

import type { LandingPage, PrivacyPolicy, SiteSettings, SupportPage } from '../sanity.types.ts';
import { parseNdjson } from '@school-site/content-lake';
import { fillTokens } from '../lib/shared/tokens.ts';
import { messageText, toMessageCopy, type FormMessage } from '../lib/forms/messages.ts';
import { SEED_FILE } from './paths.ts';

/**
 * The committed seed's wording, for tests and scripts that look for a text on a page: they read it from
 * here, so an editor's copy change in seed/production.ndjson breaks no test. Imported by the specs,
 * by vitest and by Node scripts alike (relative imports with extensions, types only from TypeGen).
 */

export { SEED_FILE };

const documents = parseNdjson(readFileSync(SEED_FILE, 'utf8'), SEED_FILE);

function seedDocument<T>(id: string): T {
  const found = documents.find((doc) => doc._id === id);
  if (!found) throw new Error(`${id} is missing from ${SEED_FILE}`);
  return found as T;
}

/** A text the tests rely on; a seed without it is a broken seed, not an empty string. */
export function required<T>(value: T | null | undefined, what: string): T {
  if (value == null || value === '') throw new Error(`${what} is missing from the seed`);
  return value;
}

export const SEED = {
  settings: seedDocument<SiteSettings>('siteSettings'),
  landing: seedDocument<LandingPage>('landingPage'),
  support: seedDocument<SupportPage>('supportPage'),
  privacy: seedDocument<PrivacyPolicy>('privacyPolicy'),
};

/** The seed's Spanish translations of the same documents. */
export const SEED_ES = {
  settings: seedDocument<SiteSettings>('siteSettings-es'),
  landing: seedDocument<LandingPage>('landingPage-es'),
  support: seedDocument<SupportPage>('supportPage-es'),
  privacy: seedDocument<PrivacyPolicy>('privacyPolicy-es'),
};

type Texts<T> = { [K in Exclude<keyof T, '_type'>]-?: string };

/** Every text of a group, each required: `group.field` is then a plain string. */
function texts<T extends object>(group: T | undefined, what: string): Texts<T> {
  const found = required(group, what);
  const entries = Object.entries(found).filter(([key]) => key !== '_type');
  for (const [key, value] of entries) required(typeof value === 'string' ? value : null, `${what}.${key}`);
  return Object.fromEntries(entries) as Texts<T>;
}

/** The request form's labels and states. */
export const SEED_FORM = texts(SEED.support.form, 'supportPage.form');
/** Language `tag` as the seed's Site settings name it. */
export const seedLanguageName = (tag: string): string =>
  required(SEED.settings.languages?.find((language) => language.tag === tag)?.name, `siteSettings.languages[${tag}].name`);
/** The Spanish support page: its heading, its first card and its form. */
export const SEED_SUPPORT_ES = {
  heading: required(SEED_ES.support.heading, 'supportPage-es.heading'),
  card: required(SEED_ES.support.cards?.[0], 'supportPage-es.cards[0]'),
  form: texts(SEED_ES.support.form, 'supportPage-es.form'),
};
/** The sign-up form. */
export const SEED_SUBSCRIBE = texts(SEED.landing.stayUpdated, 'landingPage.stayUpdated');
/** Texts around every page, the 404 and the error page. */
export const SEED_CHROME = texts(SEED.settings.chrome, 'siteSettings.chrome');
export const SEED_NOT_FOUND = texts(SEED.settings.notFound, 'siteSettings.notFound');
export const SEED_ERROR_PAGE = texts(SEED.settings.errorPage, 'siteSettings.errorPage');
/** The subscription's emails and pages, with the product name in them as the site fills it ({date} left for the notice). */
export const SEED_SUBSCRIPTION = fillTokens(texts(SEED.settings.subscription, 'siteSettings.subscription'), {
  productName: SEED.settings.productName,
});

const messages = toMessageCopy(required(SEED.settings.formMessages, 'formMessages'), required(SEED.settings.fieldNames, 'fieldNames'));

/** What a visitor reads for a message code, in the seed's words. */
export const seedMessage = (message: FormMessage): string => required(messageText(messages, message), `formMessages.${message.code}`);

/** The answers the load scripts and specs look for most. */
export const REQUEST_SENT = SEED_FORM.success;
export const SUBSCRIBED = SEED_SUBSCRIBE.successMessage;
export const GENERIC_FAILURE = seedMessage({ code: 'failed' });
