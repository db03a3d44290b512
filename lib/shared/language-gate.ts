import { isLanguageTag, localePath, type SiteLanguages } from './languages.ts';

/**
 * Which first segments of a path the site serves pages under, as this process last read the settings:
 * proxy.ts answers any other segment with the 404 before a page renders, so no visitor can make the
 * server render, or keep, a page per made-up path. State on globalThis: the proxy runs in a bundle of
 * its own, and the server bundles that read the settings set it.
 */

type Served = { tags: ReadonlySet<string>; defaultLanguage: string };

const KEY = Symbol.for('school-site.served-languages');
const store = globalThis as typeof globalThis & { [KEY]?: Served };

/** The settings as read now: each server read of the site's languages calls this. */
export function serveLanguages({ languages, defaultLanguage }: SiteLanguages): void {
  store[KEY] = { tags: new Set(languages.map(({ tag }) => tag)), defaultLanguage };
}

/** The site's languages' tags and its default, as last read; undefined before the settings were read. */
export function servedLanguages(): { tags: readonly string[]; defaultLanguage: string } | undefined {
  const served = store[KEY];
  return served && { tags: [...served.tags], defaultLanguage: served.defaultLanguage };
}

/**
 * Whether a page may live under `segment`: under a tag the settings list, as last read, but not the
 * default language's own (its pages have no prefix). Before the settings are read, under none: a page
 * rendered to find out would be kept in the route cache under whatever a visitor typed.
 */
export function mayServeLanguage(segment: string): boolean {
  const served = store[KEY];
  return served !== undefined && isLanguageTag(segment) && served.tags.has(segment) && segment !== served.defaultLanguage;
}

/**
 * The language to write in for `tag` away from its page (an email, a form's answer): `tag` while its
 * pages are served, else '' for the default language (its own tag, a tag no longer listed, or none).
 */
export const servedLanguage = (tag: string): string => (mayServeLanguage(tag) ? tag : '');

/** A path of the site (ROUTES) in servedLanguage(tag): under its prefix, or none for the default language. */
export const servedPath = (tag: string, path: string): string => localePath(path, servedLanguage(tag), { defaultLanguage: '' });
