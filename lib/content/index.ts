import 'server-only';

import { cache } from 'react';

import { fetchContent } from './fetch';
import { LANDING_PAGE_QUERY, PRIVACY_POLICY_QUERY, SETTINGS_QUERY, SUPPORT_PAGE_QUERY } from './queries';
import { fillTokens } from './tokens';

/** What pages call. Each throws when its document is missing, so a broken dataset fails the build, not a visitor. */

function required<T>(value: T | null, documentType: string): T {
  if (value === null) throw new Error(`The ${documentType} document is missing from the dataset.`);
  return value;
}

export const getSettings = cache(async () => required(await fetchContent(SETTINGS_QUERY, 'siteSettings'), 'siteSettings'));

export const getLandingPage = cache(async () => {
  const [settings, page] = await Promise.all([getSettings(), fetchContent(LANDING_PAGE_QUERY, 'landingPage')]);
  return fillTokens(required(page, 'landingPage'), { radius: settings.radiusMiles });
});

export const getSupportPage = cache(async () =>
  required(await fetchContent(SUPPORT_PAGE_QUERY, 'supportPage'), 'supportPage'),
);

export const getPrivacyPolicy = cache(async () => {
  const [settings, page] = await Promise.all([getSettings(), fetchContent(PRIVACY_POLICY_QUERY, 'privacyPolicy')]);
  return fillTokens(required(page, 'privacyPolicy'), { radius: settings.radiusMiles });
});

export type Settings = Awaited<ReturnType<typeof getSettings>>;
export type LandingPage = Awaited<ReturnType<typeof getLandingPage>>;
export type SupportPage = Awaited<ReturnType<typeof getSupportPage>>;
export type PrivacyPolicy = Awaited<ReturnType<typeof getPrivacyPolicy>>;
