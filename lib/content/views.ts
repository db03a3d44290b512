import { stegaClean } from '@sanity/client/stega';

import { ROUTES } from '@/lib/shared/public-pages';
import { toMessageCopy } from '@/lib/forms/messages';
import type { RequestType } from '@/lib/forms/request-types';
import { SUBSCRIPTION_COPY_KEYS, toSubscriptionCopy, type SubscriptionCopyKey } from '@/lib/forms/subscription-copy';
import type {
  LANDING_PAGE_QUERY_RESULT,
  SETTINGS_QUERY_RESULT,
  SUBSCRIPTION_COPY_QUERY_RESULT,
  SUPPORT_PAGE_QUERY_RESULT,
} from '@/sanity.types';

import { settingsTokens } from './settings-tokens';
import type { ErrorCopy, NotFoundCopy } from './status-copy';
import { fillSentence, fillTokens, type Sentence } from '@/lib/shared/tokens';
import { fallbackLanguage, type LangAttrs, type SectionLanguage } from '@/lib/shared/text-language';
import { clean, cleanOrNull, faqView, links, pageMeta, text, texts, type Maybe } from '@/lib/shared/view-fields';

/**
 * What pages render, made from the query results (TypeGen's types) in one place: defaults filled, the
 * {tokens} of Site settings filled in (settings-tokens.ts), and every string meant for an attribute,
 * metadata, structured data or a form value already clean of stega markers (draft mode encodes them into
 * visible text for click-to-edit; anywhere else they would be invisible junk). Components only lay these out.
 *
 * `fallbackLang`: the attributes of the default language's words on a page in another (null on the default
 * language's own pages). Where a page shows a field its translation lacks (the query's `fallback`), the view
 * says so as `lang` (a section all of whose words are the default's) and `langOf` (each field that is), for
 * the element around those words.
 */

type LandingResult = NonNullable<LANDING_PAGE_QUERY_RESULT>;
type SupportResult = NonNullable<SUPPORT_PAGE_QUERY_RESULT>;
export type SettingsResult = NonNullable<SETTINGS_QUERY_RESULT>;

type FeatureIcon = NonNullable<NonNullable<NonNullable<LandingResult['features']>['cards']>[number]['icon']>;

export function toSettingsView(settings: SettingsResult, fallbackLang: LangAttrs | null = null) {
  const { chrome, notFound, errorPage } = settings;
  const words = fallbackLanguage(settings.fallback, fallbackLang);
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
      // Its words are spread over the frame (the skip link, the footer, the way home): each marks its own.
      langOf: words.fields('chrome'),
    },
    notFound: {
      ...texts(notFound, ['label', 'heading', 'text', 'homeLink', 'supportLink']),
      description: clean(notFound?.description),
    } satisfies NotFoundCopy,
    errorPage: texts(errorPage, ['label', 'heading', 'text', 'retry', 'homeLink']) satisfies ErrorCopy,
    // Every form message by code, and the field names they fill in (lib/forms/messages.ts).
    messages: { ...toMessageCopy(settings.formMessages, settings.fieldNames), lang: words.of('formMessages') },
    langOf: {
      productName: words.of('productName'),
      headerLinks: words.of('headerLinks'),
      footerColumns: words.of('footerColumns'),
      supportHours: words.of('supportHours'),
      replyTime: words.of('replyTime'),
      notFound: words.of('notFound'),
      errorPage: words.of('errorPage'),
    },
  };
}

const FALLBACK_ICON: FeatureIcon = 'radius';

/** A store line ("Search “{productName}” in the App Store") with the product name filled in, isolated. */
const storeLine = (line: Maybe<string>, settings: SettingsResult) => fillSentence(text(line), { productName: settings.productName });

export function toLandingView(result: LandingResult, settings: SettingsResult, fallbackLang: LangAttrs | null = null) {
  const { hero, features, experience, faq, stayUpdated, seo } = fillTokens(result, settingsTokens(settings));
  const [words, settingsWords] = [fallbackLanguage(result.fallback, fallbackLang), fallbackLanguage(settings.fallback, fallbackLang)];
  // The hero and the sign-up hold words of the settings too: their fields are marked one by one, never the whole.
  const heroLangOf = words.fields('hero');
  return {
    meta: pageMeta(seo),
    hero: {
      langOf: heroLangOf,
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
          langOf: { label: heroLangOf.appStoreLabel, fallback: settingsWords.of('appStoreFallback') },
        },
        {
          key: 'playStore',
          label: text(hero?.playStoreLabel),
          href: cleanOrNull(settings.playStoreUrl),
          fallback: storeLine(settings.playStoreFallback, settings),
          langOf: { label: heroLangOf.playStoreLabel, fallback: settingsWords.of('playStoreFallback') },
        },
      ],
      scrollLabel: clean(hero?.scrollLabel),
    },
    features: {
      ...words.section('features'),
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
      ...words.section('experience'),
      heading: text(experience?.heading),
      intro: text(experience?.intro),
      steps: (experience?.steps ?? []).map((step) => ({ _key: step._key, title: text(step.title), text: text(step.text) })),
    },
    faq: { ...faqView(faq?.heading, faq?.items), ...words.section('faq') },
    stayUpdated: {
      ...texts(stayUpdated, ['heading', 'text', 'emailLabel', 'buttonLabel', 'pendingLabel', 'successMessage']),
      placeholder: clean(stayUpdated?.placeholder),
      langOf: words.fields('stayUpdated'),
    },
  };
}

/** The request type a card's form sends when the editor has not chosen one. */
const DEFAULT_REQUEST_TYPE: RequestType = 'issue';

export function toSupportView(result: SupportResult, fallbackLang: LangAttrs | null = null) {
  const { contact, form } = result;
  const words = fallbackLanguage(result.fallback, fallbackLang);
  return {
    meta: pageMeta(result.seo),
    heading: text(result.heading),
    intro: text(result.intro),
    langOf: { heading: words.of('heading'), intro: words.of('intro') },
    cards: (result.cards ?? []).map((card) => ({
      // A card and its form's title are one item of the cards: both in the translation's words, or both in the default's.
      lang: words.of('cards'),
      _key: card._key,
      title: text(card.title),
      text: text(card.text),
      modalTitle: text(card.modalTitle),
      // A form value and a stored column.
      requestType: stegaClean(card.requestType) ?? DEFAULT_REQUEST_TYPE,
    })),
    // Beside the settings' reply time and hours: marked field by field.
    contact: { ...texts(contact, ['heading', 'text', 'replyTimeLabel', 'hoursLabel']), langOf: words.fields('contact') },
    form: {
      ...texts(form, ['emailLabel', 'subjectLabel', 'messageLabel', 'cancel', 'send', 'sending', 'sent', 'error', 'success']),
      langOf: words.fields('form'),
    },
    faq: { ...faqView(result.faqHeading, result.faq), langOf: { heading: words.of('faqHeading'), items: words.of('faq') } },
  };
}

/**
 * The words of the subscription's pages: as the emails have them (titles, buttons), and each as a sentence
 * with the product's name isolated; `lang` where they are the default language's on a page in another.
 */
export function toSubscriptionView(result: SUBSCRIPTION_COPY_QUERY_RESULT, fallbackLang: LangAttrs | null = null) {
  const tokens = { productName: result?.productName };
  const sentences = SUBSCRIPTION_COPY_KEYS.map((key) => [key, fillSentence(text(result?.subscription?.[key]), tokens)] as const);
  return {
    words: toSubscriptionCopy(result),
    sentences: Object.fromEntries(sentences) as Record<SubscriptionCopyKey, Sentence>,
    lang: fallbackLanguage(result?.fallback, fallbackLang).of('subscription'),
  };
}

export type SettingsView = ReturnType<typeof toSettingsView>;
export type LandingPageView = ReturnType<typeof toLandingView>;
export type SupportPageView = ReturnType<typeof toSupportView>;
export type FaqView = ReturnType<typeof faqView> & SectionLanguage<'heading' | 'items'>;
