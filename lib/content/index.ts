import 'server-only';

import { stegaClean } from '@sanity/client/stega';
import { cacheLife } from 'next/cache';
import { cache } from 'react';

import { siteUrl } from '@/lib/env/public';

import { announcedDates } from '@/lib/policy/announced-dates';
import { fetchContent, fetchRecord, isPreview } from './fetch';
import { isCalendarDate, versionAt } from '@/lib/policy/policy-archive';
import { toPolicyFeed } from './policy-feed';
import { toSiteNoticeView, toUpcomingView } from '@/lib/policy/policy-notice-views';
import {
  LANDING_PAGE_QUERY,
  POLICY_VERSION_QUERY,
  PRIVACY_POLICY_QUERY,
  SETTINGS_QUERY,
  SUBSCRIPTION_COPY_QUERY,
  SUPPORT_PAGE_QUERY,
} from './queries';
import { getPolicySchedule } from './record-schedule';

import { getFallbackLang, getSiteLanguages, inLanguage } from './languages';
import { toVersionsCopy } from '@/lib/policy/version-copy';
import { toChangesView, toVersionListView, toVersionView } from './version-views';
import { comparedTexts, earlierTranslation, languageLines, readerText } from './version-text';
import { fallbackLanguage, type LangAttrs } from '@/lib/shared/text-language';
import { NOT_FOUND_DEFAULTS, type NotFoundCopy } from './status-copy';
import { toPrivacyView } from './policy-view';
import { toLandingView, toSettingsView, toSubscriptionView, toSupportView } from './views';

export { getLocalPath, getPageLanguage, getSiteLanguages } from './languages';

/**
 * What pages call: finished view models (views.ts). Each throws when its document is missing or cannot
 * be rendered and there is no last good version (fetch.ts), so a broken dataset fails the build, not a visitor.
 */

/** The settings as queried in `language`: the views fill its {tokens} and the store links from them. */
const settingsResult = cache((language: string) => fetchContent(SETTINGS_QUERY, 'siteSettings', { language }));

export const getSettings = cache(async (language: string) =>
  inLanguage(language, toSettingsView(await settingsResult(language), await getFallbackLang(language))),
);

export const getLandingPage = cache(async (language: string) => {
  const [settings, page] = await Promise.all([settingsResult(language), fetchContent(LANDING_PAGE_QUERY, 'landingPage', { language })]);
  return inLanguage(language, toLandingView(page, settings, await getFallbackLang(language)));
});

/** The words of the confirmation and unsubscribe pages (and the emails, which the senders read themselves: lib/mail/copy.ts). */
export const getSubscriptionCopy = cache(async (language: string) =>
  toSubscriptionView(await fetchContent(SUBSCRIPTION_COPY_QUERY, 'siteSettings', { language }), await getFallbackLang(language)),
);

export const getSupportPage = cache(async (language: string) =>
  inLanguage(language, toSupportView(await fetchContent(SUPPORT_PAGE_QUERY, 'supportPage', { language }), await getFallbackLang(language))),
);

const policyResult = cache((language: string) => fetchContent(PRIVACY_POLICY_QUERY, 'privacyPolicy', { language }));

/**
 * /privacy: for visitors the version in effect (and the one announced, if any); in draft mode the policy
 * as edited, which is what Presentation previews. With no record yet, the policy as published.
 */
export const getPrivacyPolicy = cache(async (language: string) => inLanguage(language, await privacyPolicy(language)));

async function privacyPolicy(language: string) {
  const [settings, page, site] = await Promise.all([settingsResult(language), policyResult(language), getSiteLanguages()]);
  const [{ current, next }, lang] = await Promise.all([getPolicySchedule(), getFallbackLang(language)]);
  if (!current || (await isPreview())) return toPrivacyView(page, settings, undefined, lang);
  const { version, previous, translated } = await fetchRecord(POLICY_VERSION_QUERY, { date: current.date, language });
  if (!version) return toPrivacyView(page, settings, undefined, lang);
  const [copy, shown] = [toVersionsCopy(page), readerText(version, language === site.defaultLanguage)];
  const [upcoming, lines] = [next ? toUpcomingView(next, copy, true) : null, languageLines(shown, copy, earlierTranslation(translated))];
  return toPrivacyView(page, settings, { version: shown, previousDate: previous?.date ?? null, upcoming, lines }, lang);
}

/** The line every public page carries while a version is announced; null otherwise. */
export const getSiteNotice = cache(async (language: string) => {
  const { next } = await getPolicySchedule();
  if (!next) return null;
  const [page, lang] = await Promise.all([policyResult(language), getFallbackLang(language)]);
  return inLanguage(language, {
    ...toSiteNoticeView(next, toVersionsCopy(page)),
    lang: fallbackLanguage(page.fallback, lang).of('versions'),
  });
});

/** Page `page` of the list of versions, newest first; null past the last. */
export const getPolicyVersionsPage = cache(async (language: string, page: number) => {
  const [schedule, policy] = await Promise.all([getPolicySchedule(), getPrivacyPolicy(language)]);
  return inLanguage(language, toVersionListView(schedule, policy.versions, page, policy.langOf));
});

/** The first page of the list, which always exists. */
export const getPolicyVersions = async (language: string) => (await getPolicyVersionsPage(language, 1))!;

export const getPolicyVersionDates = async () => (await getPolicySchedule()).dates;

/** What /privacy/versions/<value> answers (policy-archive.ts), with the version's view when it shows one. */
export const getPolicyVersion = cache(async (language: string, value: string) => {
  const schedule = await getPolicySchedule();
  const at = versionAt(value, schedule);
  if (at.kind !== 'version') return at;
  const [{ version, previous, translated }, policy, settings, site] = await Promise.all([
    fetchRecord(POLICY_VERSION_QUERY, { date: at.date, language }),
    getPrivacyPolicy(language),
    settingsResult(language),
    getSiteLanguages(),
  ]);
  if (!version) return { kind: 'not-found' } as const;
  const shown = readerText(version, language === site.defaultLanguage);
  return {
    kind: 'version',
    view: await inLanguage(language, toVersionView(shown, previous !== null, schedule, policy, settings, earlierTranslation(translated))),
  } as const;
});

/** What changed in the version of `value` from the one before, or null when no version has that date or none precedes it. */
export const getPolicyChanges = cache(async (language: string, value: string) => {
  const schedule = await getPolicySchedule();
  if (!isCalendarDate(value) || !schedule.dates.includes(value)) return null;
  const [{ version, previous }, policy, settings, site] = await Promise.all([
    fetchRecord(POLICY_VERSION_QUERY, { date: value, language }),
    getPrivacyPolicy(language),
    settingsResult(language),
    getSiteLanguages(),
  ]);
  if (!version || !previous) return null;
  // Both in the reader's language, or both in the default: a diff across languages says nothing.
  const [after, before] = comparedTexts(version, previous, language === site.defaultLanguage);
  return inLanguage(language, await changesView(after, before, value === schedule.current?.date, policy.versions, settings, policy.langOf));
});

/** The Atom feed of the versions and their announcements (policy-feed.ts). */
export const getPolicyFeed = cache(async (language: string) => {
  const [schedule, page, settings, announced] = await Promise.all([
    getPolicySchedule(),
    policyResult(language),
    settingsResult(language),
    announcedDates(),
  ]);
  return toPolicyFeed(schedule, toVersionsCopy(page), {
    site: siteUrl(),
    language: { tag: language, defaultLanguage: (await getSiteLanguages()).defaultLanguage },
    author: settings.productName ?? '',
    announced: new Set(announced),
  });
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
export async function getNotFoundCopy(language?: string): Promise<NotFoundCopy & { title: string; writtenIn: LangAttrs }> {
  let copy: NotFoundCopy;
  let writtenIn: LangAttrs = { lang: 'en', dir: 'ltr' };
  try {
    const site = await getSiteLanguages();
    const tag = language ?? site.defaultLanguage;
    copy = (await getSettings(tag)).notFound;
    writtenIn = { lang: tag, dir: site.languages.find((listed) => listed.tag === tag)?.direction ?? 'ltr' };
  } catch (error) {
    console.error('content: the 404 page falls back to its default words', error);
    copy = NOT_FOUND_DEFAULTS;
  }
  return { ...copy, title: stegaClean(copy.heading), writtenIn };
}
