import { defineQuery } from 'groq';

/**
 * Every GROQ query of the site. The hosted Sanity client and the embedded
 * groq-js source run these same strings; TypeGen derives the result types.
 * Singletons are matched by type, so the drafts perspective finds their drafts too. Each may have a
 * translation per language: a document of the same type whose `language` is the tag. A page in language
 * $language reads each of its fields from the translation, and from the default language's document
 * where the translation has none (a field added after the page was translated, or no translation at all),
 * and names those fields in `fallback`, so the page marks their words as the default language's.
 */

/** The site's languages: which it has, the default, and the one whose text of the policy governs. */
export const LANGUAGES_QUERY = defineQuery(
  `*[_type == "siteSettings" && !defined(language)][0]{ languages[]{ tag, name, direction }, defaultLanguage, governingLanguage }`,
);

/** The default language's tag, as the site takes it from Site settings (toSiteLanguages): English in a dataset from before languages. */
const DEFAULT_LANGUAGE = `coalesce(*[_id == "siteSettings"][0].defaultLanguage, *[_id == "siteSettings"][0].languages[0].tag, "en")`;

// The pieces below are typed as their exact text (`as const`): a query's type is its text, which the
// result types TypeGen writes are keyed by.

/**
 * The default language's document of `type`, with `t`: its translation into $language, the document itself
 * when $language is the default language (or "", as the emails name it), null when there is none.
 */
const withTranslation = <T extends string>(type: T) =>
  `*[_type == "${type}" && !defined(language)][0]{ ..., "t": select($language in ["", ${DEFAULT_LANGUAGE}] => @, *[_type == "${type}" && language == $language][0]) }` as const;

/** A field from the translation where it has one, else from the default language's document. */
const either = <F extends string>(field: F) => `"${field}": coalesce(t.${field}, ${field})` as const;

/**
 * An object field with each of its fields from the translation where it has one, else from the default
 * language's document (which has every object a page has: a translation only ever lacks some).
 */
const merged = <F extends string>(field: F) => `"${field}": ${field}{ ..., ...^.t.${field} }` as const;

/** The name of field `path` where its value is the default language's document's: the translation has none. */
const fellBack = <P extends string>(path: P) => `select(defined(${path}) && !defined(t.${path}) => "${path}")` as const;

/** How long support requests are kept (lib/shared/retention.ts), for the sweep, which reads it outside any request. */
export const RETENTION_QUERY = defineQuery(
  `*[_type == "siteSettings" && !defined(language)][0]{ answeredRequestDays, unansweredRequestDays }`,
);

/** The settings are the default document's; their words, the translation's where it has them. */
export const SETTINGS_QUERY = defineQuery(`${withTranslation('siteSettings')}{
  radiusMiles,
  answeredRequestDays,
  unansweredRequestDays,
  appStoreUrl,
  playStoreUrl,
  languages[]{ tag, name, direction },
  defaultLanguage,
  governingLanguage,
  ${either('productName')},
  ${either('description')},
  ${either('appStoreFallback')},
  ${either('playStoreFallback')},
  ${either('headerLinks')}[]{ _key, label, href },
  ${either('footerColumns')}[]{ _key, title, links[]{ _key, label, href } },
  ${either('supportHours')},
  ${either('replyTime')},
  ${merged('chrome')},
  ${merged('notFound')},
  ${merged('errorPage')},
  ${merged('formMessages')},
  ${merged('fieldNames')},
  "fallback": [
    ${fellBack('productName')}, ${fellBack('description')}, ${fellBack('appStoreFallback')}, ${fellBack('playStoreFallback')},
    ${fellBack('headerLinks')}, ${fellBack('footerColumns')}, ${fellBack('supportHours')}, ${fellBack('replyTime')},
    ${fellBack('chrome')}, ${fellBack('chrome.skipLink')}, ${fellBack('chrome.languageNav')}, ${fellBack('chrome.rightsReserved')},
    ${fellBack('chrome.backHome')}, ${fellBack('chrome.shareImageAlt')},
    ${fellBack('notFound')}, ${fellBack('errorPage')}, ${fellBack('formMessages')}, ${fellBack('fieldNames')}
  ][defined(@)]
}`);

/** The subscription's words (lib/forms/subscription-copy.ts): its pages, and the emails the senders write. */
export const SUBSCRIPTION_COPY_QUERY = defineQuery(`${withTranslation('siteSettings')}{
  ${either('productName')},
  ${merged('subscription')},
  "fallback": [${fellBack('productName')}, ${fellBack('subscription')}][defined(@)]
}`);

export const LANDING_PAGE_QUERY = defineQuery(`${withTranslation('landingPage')}{
  ${merged('hero')}{ headline, text, appStoreLabel, playStoreLabel, scrollLabel },
  ${merged('features')}{ heading, intro, cards[]{ _key, title, text, icon } },
  ${merged('experience')}{ heading, intro, steps[]{ _key, title, text } },
  ${merged('faq')}{ heading, items[]{ _key, question, answer } },
  ${merged('stayUpdated')}{ heading, text, emailLabel, placeholder, buttonLabel, pendingLabel, successMessage },
  ${merged('seo')}{ title, description },
  "fallback": [
    ${fellBack('hero')}, ${fellBack('hero.headline')}, ${fellBack('hero.text')}, ${fellBack('hero.appStoreLabel')},
    ${fellBack('hero.playStoreLabel')}, ${fellBack('hero.scrollLabel')},
    ${fellBack('features')}, ${fellBack('features.heading')}, ${fellBack('features.intro')}, ${fellBack('features.cards')},
    ${fellBack('experience')}, ${fellBack('experience.heading')}, ${fellBack('experience.intro')}, ${fellBack('experience.steps')},
    ${fellBack('faq')}, ${fellBack('faq.heading')}, ${fellBack('faq.items')},
    ${fellBack('stayUpdated')}, ${fellBack('stayUpdated.heading')}, ${fellBack('stayUpdated.text')}, ${fellBack('stayUpdated.emailLabel')},
    ${fellBack('stayUpdated.placeholder')}, ${fellBack('stayUpdated.buttonLabel')}, ${fellBack('stayUpdated.pendingLabel')},
    ${fellBack('stayUpdated.successMessage')},
    ${fellBack('seo')}, ${fellBack('seo.title')}, ${fellBack('seo.description')}
  ][defined(@)]
}`);

export const SUPPORT_PAGE_QUERY = defineQuery(`${withTranslation('supportPage')}{
  ${either('heading')},
  ${either('intro')},
  ${either('cards')}[]{ _key, title, text, modalTitle, requestType },
  ${merged('contact')}{ heading, text, replyTimeLabel, hoursLabel },
  ${merged('form')},
  ${either('faqHeading')},
  ${either('faq')}[]{ _key, question, answer },
  ${merged('seo')}{ title, description },
  "fallback": [
    ${fellBack('heading')}, ${fellBack('intro')}, ${fellBack('cards')},
    ${fellBack('contact')}, ${fellBack('contact.heading')}, ${fellBack('contact.text')}, ${fellBack('contact.replyTimeLabel')},
    ${fellBack('contact.hoursLabel')},
    ${fellBack('form')}, ${fellBack('form.emailLabel')}, ${fellBack('form.subjectLabel')}, ${fellBack('form.messageLabel')},
    ${fellBack('form.cancel')}, ${fellBack('form.send')}, ${fellBack('form.sending')}, ${fellBack('form.sent')}, ${fellBack('form.error')},
    ${fellBack('form.success')},
    ${fellBack('faqHeading')}, ${fellBack('faq')}, ${fellBack('seo')}, ${fellBack('seo.title')}, ${fellBack('seo.description')}
  ][defined(@)]
}`);

/** The record's versions (policy-record.ts): published only, whatever the perspective, as a record holds no draft. */
const RECORD = `_type == "privacyPolicyVersion" && !(_id in path("drafts.**")) && !(_id in path("versions.**"))`;

/**
 * The policy, its versions pages' words, and the version before its own date (for the link to what changed).
 * Dates are written in the translation's language, or the default's where there is no translation.
 */
export const PRIVACY_POLICY_QUERY = defineQuery(`${withTranslation('privacyPolicy')}{
  "locale": coalesce(t.language, ${DEFAULT_LANGUAGE}),
  ${either('title')},
  ${either('lastUpdated')},
  ${either('lastUpdatedLabel')},
  ${either('summary')},
  ${either('sections')}[]{ _key, heading, body },
  ${merged('seo')}{ title, description },
  ${merged('versions')},
  "previousDate": *[${RECORD} && date < coalesce(^.t.lastUpdated, ^.lastUpdated)] | order(date desc)[0].date,
  "fallback": [
    ${fellBack('title')}, ${fellBack('lastUpdated')}, ${fellBack('lastUpdatedLabel')}, ${fellBack('summary')}, ${fellBack('sections')},
    ${fellBack('seo')}, ${fellBack('seo.title')}, ${fellBack('seo.description')}, ${fellBack('versions')}
  ][defined(@)]
}`);

/** Every version, newest first, without its text: what the list at /privacy/versions shows, and which is in effect. */
export const POLICY_VERSIONS_QUERY = defineQuery(
  `*[${RECORD}] | order(date desc){ date, summary, material, publishedAt, correctedAt, withdrawnAt }`,
);

/** A version's text in `$language`, and what tells whether it is of the version's text as it stands (policy-record.ts). */
const TRANSLATION = `publishedAt, correctedAt, "translation": translations[language == $language][0]{ title, summary, recordedAt, sections[]{ _key, heading, body } }`;

/**
 * One version in full, the one before it that was not withdrawn (which its changes compare it with), and
 * the latest before it with a text in `$language`, for a reader whose translation is not ready.
 */
export const POLICY_VERSION_QUERY = defineQuery(`{
  "version": *[${RECORD} && date == $date][0]{ date, title, summary, withdrawnAt, sections[]{ _key, heading, body }, ${TRANSLATION} },
  "previous": *[${RECORD} && date < $date && !defined(withdrawnAt)] | order(date desc)[0]{ date, title, summary, sections[]{ _key, heading, body }, ${TRANSLATION} },
  "translated": *[${RECORD} && date < $date && !defined(withdrawnAt) && count(translations[language == $language]) > 0] | order(date desc)[0...20]{ date, ${TRANSLATION} }
}`);

/** The site's time zone, which decides when each version takes effect (lib/shared/site-time.ts). */
export const TIME_ZONE_QUERY = defineQuery(`*[_id == "siteSettings"][0].timeZone`);

/** The published policy and its record of versions (policy-record.ts), for the publish webhook on a hosted project. */
export const POLICY_RECORD_QUERY = defineQuery(`{
  "policy": *[_type == "privacyPolicy" && _id == "privacyPolicy"][0],
  "record": *[${RECORD}],
  "translations": *[_type == "privacyPolicy" && defined(language) && !(_id in path("drafts.**")) && !(_id in path("versions.**"))],
  "settings": *[_id == "siteSettings"][0]{ timeZone, noticePeriodDays, languages[]{ tag }, defaultLanguage, announceBeforeTranslations }
}`);

/** Whole published documents of the given types, for checking content before a publish refreshes pages. */
export const DOCUMENTS_OF_TYPES_QUERY = defineQuery(`*[_type in $types && !(_id in path("drafts.**"))]`);
