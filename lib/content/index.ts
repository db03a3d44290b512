import 'server-only';

import { cache } from 'react';

import type { ContentType } from './types';
import { fetchContent } from './fetch';
import { LANDING_PAGE_QUERY, PRIVACY_POLICY_QUERY, SETTINGS_QUERY, SUPPORT_PAGE_QUERY } from './queries';
import { toLandingView, toPrivacyView, toSettingsView, toSupportView } from './views';

/**
 * What pages call: finished view models (views.ts). Each throws when its document is missing, so a
 * broken dataset fails the build, not a visitor.
 */

function required<T>(value: T | null, documentType: ContentType): T {
  if (value === null) throw new Error(`The ${documentType} document is missing from the dataset.`);
  return value;
}

/** The settings as queried: the views fill {radius} and the store links from them. */
const settingsResult = cache(async () => required(await fetchContent(SETTINGS_QUERY, 'siteSettings'), 'siteSettings'));

export const getSettings = cache(async () => toSettingsView(await settingsResult()));

export const getLandingPage = cache(async () => {
  const [settings, page] = await Promise.all([settingsResult(), fetchContent(LANDING_PAGE_QUERY, 'landingPage')]);
  return toLandingView(required(page, 'landingPage'), settings);
});

export const getSupportPage = cache(async () => toSupportView(required(await fetchContent(SUPPORT_PAGE_QUERY, 'supportPage'), 'supportPage')));

export const getPrivacyPolicy = cache(async () => {
  const [settings, page] = await Promise.all([settingsResult(), fetchContent(PRIVACY_POLICY_QUERY, 'privacyPolicy')]);
  return toPrivacyView(required(page, 'privacyPolicy'), settings);
});

