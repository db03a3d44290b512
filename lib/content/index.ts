import 'server-only';

import { stegaClean } from '@sanity/client/stega';
import { cache } from 'react';

import { fetchContent } from './fetch';
import { LANDING_PAGE_QUERY, PRIVACY_POLICY_QUERY, SETTINGS_QUERY, SUPPORT_PAGE_QUERY } from './queries';
import { NOT_FOUND_DEFAULTS, type NotFoundCopy } from './status-copy';
import { toLandingView, toPrivacyView, toSettingsView, toSupportView } from './views';

/**
 * What pages call: finished view models (views.ts). Each throws when its document is missing or cannot
 * be rendered and there is no last good version (fetch.ts), so a broken dataset fails the build, not a visitor.
 */

/** The settings as queried: the views fill {radius} and the store links from them. */
const settingsResult = cache(() => fetchContent(SETTINGS_QUERY, 'siteSettings'));

export const getSettings = cache(async () => toSettingsView(await settingsResult()));

export const getLandingPage = cache(async () => {
  const [settings, page] = await Promise.all([settingsResult(), fetchContent(LANDING_PAGE_QUERY, 'landingPage')]);
  return toLandingView(page, settings);
});

export const getSupportPage = cache(async () => toSupportView(await fetchContent(SUPPORT_PAGE_QUERY, 'supportPage')));

export const getPrivacyPolicy = cache(async () => {
  const [settings, page] = await Promise.all([settingsResult(), fetchContent(PRIVACY_POLICY_QUERY, 'privacyPolicy')]);
  return toPrivacyView(page, settings);
});

/**
 * The 404 page's words, with a clean title for its <head>. A 404 must render whatever happens, so when
 * the dataset cannot be read at all it gets the defaults in code (lib/content/status-copy.ts).
 */
export async function getNotFoundCopy(): Promise<NotFoundCopy & { title: string }> {
  let copy: NotFoundCopy;
  try {
    copy = (await getSettings()).notFound;
  } catch (error) {
    console.error('content: the 404 page falls back to its default words', error);
    copy = NOT_FOUND_DEFAULTS;
  }
  return { ...copy, title: stegaClean(copy.heading) };
}
