import { stegaClean } from '@sanity/client/stega';

import { changesPath, ROUTES } from '@/lib/shared/public-pages';
import { toMessageCopy } from '@/lib/forms/messages';
import type { RequestType } from '@/lib/forms/request-types';
import type {
  BlockContent,
  LANDING_PAGE_QUERY_RESULT,
  PRIVACY_POLICY_QUERY_RESULT,
  SETTINGS_QUERY_RESULT,
  SUPPORT_PAGE_QUERY_RESULT,
} from '@/sanity.types';

import type { UpcomingView } from '@/lib/policy/policy-notice-views';
import type { ErrorCopy, NotFoundCopy } from './status-copy';
import type { languageLines } from './version-text';
import { fillTokens } from '@/lib/shared/tokens';
import { toVersionsCopy } from '@/lib/policy/version-copy';
import { clean, cleanOrNull, faqView, formatDate, links, pageMeta, text, texts, type Maybe } from '@/lib/shared/view-fields';

/**
 * What pages render, made from the query results (TypeGen's types) in one place: defaults filled,
 * {radius} filled in from Site settings, and every string meant for an attribute, metadata, structured
 * data or a form value already clean of stega markers (draft mode encodes them into visible text for
 * click-to-edit; anywhere else they would be invisible junk). Components only lay these out.
 */

type LandingResult = NonNullable<LANDING_PAGE_QUERY_RESULT>;
type SupportResult = NonNullable<SUPPORT_PAGE_QUERY_RESULT>;
export type SettingsResult = NonNullable<SETTINGS_QUERY_RESULT>;
type PrivacyResult = NonNullable<PRIVACY_POLICY_QUERY_RESULT>;

type FeatureIcon = NonNullable<NonNullable<NonNullable<LandingResult['features']>['cards']>[number]['icon']>;

export function toSettingsView(settings: SettingsResult) {
  const { chrome, notFound, errorPage } = settings;
  return {
    productName: text(settings.productName),
    // The home page, as every page links to it (in a language, under its prefix).
    home: { href: ROUTES.home },
    meta: { name: clean(settings.productName), description: cleanOrNull(settings.description) ?? undefined },
    headerLinks: links(settings.headerLinks),
    footerColumns: (settings.footerColumns ?? []).map((column) => ({
      _key: column._key,
      title: text(column.title),
      links: links(column.links),
    })),
    supportHours: text(settings.supportHours),
    replyTime: text(settings.replyTime),
    chrome: {
      ...texts(chrome, ['skipLink', 'languageNav', 'rightsReserved', 'backHome']),
      // The share image's alt text, in the page's metadata.
      shareImageAlt: clean(chrome?.shareImageAlt),
    },
    notFound: {
      ...texts(notFound, ['label', 'heading', 'text', 'homeLink', 'supportLink']),
      description: clean(notFound?.description),
    } satisfies NotFoundCopy,
    errorPage: texts(errorPage, ['label', 'heading', 'text', 'retry', 'homeLink']) satisfies ErrorCopy,
    // Every form message by code, and the field names they fill in (lib/forms/messages.ts).
    messages: toMessageCopy(settings.formMessages, settings.fieldNames),
  };
}

const FALLBACK_ICON: FeatureIcon = 'radius';

/** A store line ("Search “{productName}” in the App Store") with the product name filled in. */
const storeLine = (line: Maybe<string>, settings: SettingsResult) => text(fillTokens(line, { productName: settings.productName }));

export function toLandingView(result: LandingResult, settings: SettingsResult) {
  const { hero, features, experience, faq, stayUpdated, seo } = fillTokens(result, { radius: settings.radiusMiles });
  return {
    meta: pageMeta(seo),
    hero: {
      headline: text(hero?.headline),
      text: text(hero?.text),
      // Each store button with its listing from Site settings; href null while there is none, and then
      // the line that says where to find the app instead.
      stores: [
        {
          key: 'appStore',
          label: text(hero?.appStoreLabel),
          href: cleanOrNull(settings.appStoreUrl),
          fallback: storeLine(settings.appStoreFallback, settings),
        },
        {
          key: 'playStore',
          label: text(hero?.playStoreLabel),
          href: cleanOrNull(settings.playStoreUrl),
          fallback: storeLine(settings.playStoreFallback, settings),
        },
      ],
      scrollLabel: clean(hero?.scrollLabel),
    },
    features: {
      heading: text(features?.heading),
      intro: text(features?.intro),
      cards: (features?.cards ?? []).map((card) => ({
        _key: card._key,
        title: text(card.title),
        text: text(card.text),
        icon: stegaClean(card.icon) ?? FALLBACK_ICON,
      })),
    },
    experience: {
      heading: text(experience?.heading),
      intro: text(experience?.intro),
      steps: (experience?.steps ?? []).map((step) => ({ _key: step._key, title: text(step.title), text: text(step.text) })),
    },
    faq: faqView(faq?.heading, faq?.items),
    stayUpdated: {
      ...texts(stayUpdated, ['heading', 'text', 'emailLabel', 'buttonLabel', 'pendingLabel', 'successMessage']),
      placeholder: clean(stayUpdated?.placeholder),
    },
  };
}

/** The request type a card's form sends when the editor has not chosen one. */
const DEFAULT_REQUEST_TYPE: RequestType = 'issue';

export function toSupportView(result: SupportResult) {
  const { contact, form } = result;
  return {
    meta: pageMeta(result.seo),
    heading: text(result.heading),
    intro: text(result.intro),
    cards: (result.cards ?? []).map((card) => ({
      _key: card._key,
      title: text(card.title),
      text: text(card.text),
      modalTitle: text(card.modalTitle),
      // A form value and a stored column.
      requestType: stegaClean(card.requestType) ?? DEFAULT_REQUEST_TYPE,
    })),
    contact: texts(contact, ['heading', 'text', 'replyTimeLabel', 'hoursLabel']),
    form: texts(form, ['emailLabel', 'subjectLabel', 'messageLabel', 'cancel', 'send', 'sending', 'sent', 'error', 'success']),
    faq: faqView(result.faqHeading, result.faq),
  };
}

/** Portable Text with its link targets clean (they become href attributes). */
const withCleanLinks = (blocks: BlockContent): BlockContent =>
  blocks.map((block) =>
    block.markDefs ? { ...block, markDefs: block.markDefs.map((mark) => ({ ...mark, href: cleanOrNull(mark.href) ?? undefined })) } : block,
  );

/** A policy's sections, as /privacy and each earlier version show them. */
export const policySections = (sections: PrivacyResult['sections'], settings: SettingsResult) =>
  fillTokens(sections ?? [], { radius: settings.radiusMiles }).map((section) => ({
    _key: section._key,
    heading: text(section.heading),
    body: withCleanLinks(section.body ?? []),
  }));

/**
 * What /privacy shows: the policy document itself (in draft mode, or with no record), or, for visitors,
 * the version of the record in effect today (policy-schedule.ts) with the policy's own words around it.
 */
export type PolicyShown = {
  /** The record's text of the version in effect; without it, the document's own (a translation of that version). */
  version?: Pick<PrivacyResult, 'title' | 'summary' | 'sections'> & { date: string | null };
  previousDate: string | null;
  upcoming: UpcomingView | null;
  /** The reader's language beside the default: which text governs, or that its translation is not ready (version-text.ts). */
  lines?: ReturnType<typeof languageLines>;
};

export function toPrivacyView(result: PrivacyResult, settings: SettingsResult, shown?: PolicyShown) {
  const { lastUpdatedLabel, seo } = result;
  const source = shown?.version ?? { ...result, date: result.lastUpdated };
  const { title, summary, sections } = fillTokens(source, { radius: settings.radiusMiles });
  const date = cleanOrNull(source.date);
  const previousDate = shown ? shown.previousDate : result.previousDate;
  const versions = toVersionsCopy(result);
  return {
    meta: pageMeta(seo),
    title: text(title),
    lastUpdated: date ? { label: text(lastUpdatedLabel), dateTime: date, text: formatDate(date, versions.locale) } : null,
    summary: summary ? { label: versions.summaryLabel, text: text(summary) } : null,
    versionsLink: { label: versions.earlierLink, href: ROUTES.versions },
    // Only where there is an earlier version to compare with.
    changesLink: date && previousDate ? { label: versions.changesLink, href: changesPath(date) } : null,
    sections: policySections(sections, settings),
    upcoming: shown?.upcoming ?? null,
    governingNote: shown?.lines?.governingNote ?? null,
    translationPending: shown?.lines?.translationPending ?? null,
    versions,
  };
}

export type SettingsView = ReturnType<typeof toSettingsView>;
export type LandingPageView = ReturnType<typeof toLandingView>;
export type SupportPageView = ReturnType<typeof toSupportView>;
export type PrivacyPolicyView = ReturnType<typeof toPrivacyView>;
export type FaqView = ReturnType<typeof faqView>;
