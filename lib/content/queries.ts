import { defineQuery } from 'groq';

/**
 * Every GROQ query of the site. The hosted Sanity client and the embedded
 * groq-js source run these same strings; TypeGen derives the result types.
 * Singletons are matched by type, so the drafts perspective finds their drafts too. Each may have a
 * translation per language: a document of the same type whose `language` is the tag. A page in language
 * $language reads its translation, and the default language's document where there is none.
 */

/** The site's languages: which it has, the default, and the one whose text of the policy governs. */
export const LANGUAGES_QUERY = defineQuery(
  `*[_type == "siteSettings" && !defined(language)][0]{ languages[]{ tag, name, direction }, defaultLanguage, governingLanguage }`,
);

/** The settings are the default document's; their words, the translation's where there is one. */
export const SETTINGS_QUERY = defineQuery(`*[_type == "siteSettings" && !defined(language)][0]{
  radiusMiles,
  appStoreUrl,
  playStoreUrl,
  languages[]{ tag, name, direction },
  defaultLanguage,
  governingLanguage,
  ...coalesce(*[_type == "siteSettings" && language == $language][0], @){
    productName,
    description,
    appStoreFallback,
    playStoreFallback,
    headerLinks[]{ _key, label, href },
    footerColumns[]{ _key, title, links[]{ _key, label, href } },
    supportHours,
    replyTime,
    chrome,
    notFound,
    errorPage,
    formMessages,
    fieldNames
  }
}`);

/** The subscription's words (lib/forms/subscription-copy.ts): its pages, and the emails the senders write. */
export const SUBSCRIPTION_COPY_QUERY = defineQuery(
  `coalesce(*[_type == "siteSettings" && language == $language][0], *[_type == "siteSettings" && !defined(language)][0]){ productName, subscription }`,
);

export const LANDING_PAGE_QUERY =
  defineQuery(`coalesce(*[_type == "landingPage" && language == $language][0], *[_type == "landingPage" && !defined(language)][0]){
  hero{ headline, text, appStoreLabel, playStoreLabel, scrollLabel },
  features{ heading, intro, cards[]{ _key, title, text, icon } },
  experience{ heading, intro, steps[]{ _key, title, text } },
  faq{ heading, items[]{ _key, question, answer } },
  stayUpdated{ heading, text, emailLabel, placeholder, buttonLabel, pendingLabel, successMessage },
  seo{ title, description }
}`);

export const SUPPORT_PAGE_QUERY =
  defineQuery(`coalesce(*[_type == "supportPage" && language == $language][0], *[_type == "supportPage" && !defined(language)][0]){
  heading,
  intro,
  cards[]{ _key, title, text, modalTitle, requestType },
  contact{ heading, text, replyTimeLabel, hoursLabel },
  form,
  faqHeading,
  faq[]{ _key, question, answer },
  seo{ title, description }
}`);

/** The record's versions (policy-record.ts): published only, whatever the perspective, as a record holds no draft. */
const RECORD = `_type == "privacyPolicyVersion" && !(_id in path("drafts.**")) && !(_id in path("versions.**"))`;

/** The policy, its versions pages' words, and the version before its own date (for the link to what changed). */
export const PRIVACY_POLICY_QUERY =
  defineQuery(`coalesce(*[_type == "privacyPolicy" && language == $language][0], *[_type == "privacyPolicy" && !defined(language)][0]){
  "locale": coalesce(language, *[_id == "siteSettings"][0].defaultLanguage, "en"),
  title,
  lastUpdated,
  lastUpdatedLabel,
  summary,
  sections[]{ _key, heading, body },
  seo{ title, description },
  versions,
  "previousDate": *[${RECORD} && date < ^.lastUpdated] | order(date desc)[0].date
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
