import { defineQuery } from 'groq';

/**
 * Every GROQ query of the site. The hosted Sanity client and the embedded
 * groq-js source run these same strings; TypeGen derives the result types.
 * Singletons are matched by type, so the drafts perspective finds their drafts too.
 */

export const SETTINGS_QUERY = defineQuery(`*[_type == "siteSettings"][0]{
  productName,
  description,
  radiusMiles,
  appStoreUrl,
  appStoreFallback,
  playStoreUrl,
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
}`);

export const LANDING_PAGE_QUERY = defineQuery(`*[_type == "landingPage"][0]{
  hero{ headline, text, appStoreLabel, playStoreLabel, scrollLabel },
  features{ heading, intro, cards[]{ _key, title, text, icon } },
  experience{ heading, intro, steps[]{ _key, title, text } },
  faq{ heading, items[]{ _key, question, answer } },
  stayUpdated{ heading, text, emailLabel, placeholder, buttonLabel, pendingLabel, successMessage },
  seo{ title, description }
}`);

export const SUPPORT_PAGE_QUERY = defineQuery(`*[_type == "supportPage"][0]{
  heading,
  intro,
  cards[]{ _key, title, text, modalTitle, requestType },
  contact{ heading, text, replyTimeLabel, hoursLabel },
  form,
  faqHeading,
  faq[]{ _key, question, answer },
  seo{ title, description }
}`);

export const PRIVACY_POLICY_QUERY = defineQuery(`*[_type == "privacyPolicy"][0]{
  title,
  lastUpdated,
  lastUpdatedLabel,
  sections[]{ _key, heading, body },
  seo{ title, description }
}`);

/** Whole published documents of the given types, for checking content before a publish refreshes pages. */
/** The published policy and its record of versions (policy-record.ts), for the publish webhook on a hosted project. */
export const POLICY_RECORD_QUERY = defineQuery(`{
  "policy": *[_type == "privacyPolicy" && _id == "privacyPolicy"][0],
  "record": *[_type == "privacyPolicyVersion" && !(_id in path("drafts.**")) && !(_id in path("versions.**"))]
}`);

export const DOCUMENTS_OF_TYPES_QUERY = defineQuery(`*[_type in $types && !(_id in path("drafts.**"))]`);
