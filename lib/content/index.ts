import 'server-only';

import { stegaClean } from '@sanity/client/stega';
import { cacheLife } from 'next/cache';
import { cache } from 'react';

import { fetchContent, fetchRecord } from './fetch';
import { isCalendarDate, versionAt } from './policy-archive';
import {
  LANDING_PAGE_QUERY,
  POLICY_VERSION_QUERY,
  POLICY_VERSIONS_QUERY,
  PRIVACY_POLICY_QUERY,
  SETTINGS_QUERY,
  SUBSCRIPTION_COPY_QUERY,
  SUPPORT_PAGE_QUERY,
} from './queries';
import { toSubscriptionCopy } from './subscription-copy';
import { datesOf, toChangesView, toVersionListView, toVersionView } from './version-views';
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

/** The words of the confirmation and unsubscribe pages (and the emails, which the senders read themselves: lib/mail/copy.ts). */
export const getSubscriptionCopy = cache(async () => toSubscriptionCopy(await fetchContent(SUBSCRIPTION_COPY_QUERY, 'siteSettings')));

export const getSupportPage = cache(async () => toSupportView(await fetchContent(SUPPORT_PAGE_QUERY, 'supportPage')));

export const getPrivacyPolicy = cache(async () => {
  const [settings, page] = await Promise.all([settingsResult(), fetchContent(PRIVACY_POLICY_QUERY, 'privacyPolicy')]);
  return toPrivacyView(page, settings);
});

/** The record of the policy's versions, newest first (policy-record.ts). */
const versionList = () => fetchRecord(POLICY_VERSIONS_QUERY);

/** Today's date in UTC, for "a date after today names no version": renewed hourly, so the pages stay cached. */
async function today(): Promise<string> {
  'use cache';
  cacheLife('hours');
  return new Date().toISOString().slice(0, 10);
}

/** Page `page` of the list of versions, newest first; null past the last. */
export const getPolicyVersionsPage = cache(async (page: number) => {
  const [list, policy] = await Promise.all([versionList(), getPrivacyPolicy()]);
  return toVersionListView(list, policy.versions, page);
});

/** The first page of the list, which always exists. */
export const getPolicyVersions = async () => (await getPolicyVersionsPage(1))!;

export const getPolicyVersionDates = async () => datesOf(await versionList());

/** What /privacy/versions/<value> answers (policy-archive.ts), with the version's view when it shows one. */
export const getPolicyVersion = cache(async (value: string) => {
  const dates = datesOf(await versionList());
  const at = versionAt(value, dates, await today());
  if (at.kind !== 'version') return at;
  const [{ version, previous }, policy, settings] = await Promise.all([
    fetchRecord(POLICY_VERSION_QUERY, { date: at.date }),
    getPrivacyPolicy(),
    settingsResult(),
  ]);
  if (!version) return { kind: 'not-found' } as const;
  return { kind: 'version', view: toVersionView(version, previous !== null, dates, policy, settings) } as const;
});

/** What changed in the version of `value` from the one before, or null when no version has that date or none precedes it. */
export const getPolicyChanges = cache(async (value: string) => {
  const dates = datesOf(await versionList());
  if (!isCalendarDate(value) || !dates.includes(value)) return null;
  const [{ version, previous }, policy, settings] = await Promise.all([
    fetchRecord(POLICY_VERSION_QUERY, { date: value }),
    getPrivacyPolicy(),
    settingsResult(),
  ]);
  if (!version || !previous) return null;
  return changesView(version, previous, value === dates[0], policy.versions, settings);
});

/** The diff library reads the clock (for a timeout this never sets), which a prerender allows only inside a cache. */
async function changesView(...args: Parameters<typeof toChangesView>) {
  'use cache';
  cacheLife('max');
  return toChangesView(...args);
}

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
