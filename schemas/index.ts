import type { Rule } from 'sanity';

import { plainTextProblems } from '@/lib/shared/plain-text';
import { CONTENT_TYPES, type ContentType } from '@/lib/shared/content-types';

import { languageField } from './languages';
import { privacyPolicyVersion } from './documents/privacyPolicyVersion';
import { blockContent } from './objects/blockContent';
import { experienceItem } from './objects/experienceItem';
import { faqItem } from './objects/faqItem';
import { featureCard } from './objects/featureCard';
import { footerColumn } from './objects/footerColumn';
import { link } from './objects/link';
import { privacySection } from './objects/privacySection';
import { seo } from './objects/seo';
import { supportCard } from './objects/supportCard';
import { landingPage } from './singletons/landingPage';
import { privacyPolicy } from './singletons/privacyPolicy';
import { siteSettings } from './singletons/siteSettings';
import { supportPage } from './singletons/supportPage';

/** The document schema of each content type: a singleton, one document whose _id is its type name. */
export const SINGLETONS = { siteSettings, landingPage, supportPage, privacyPolicy } satisfies Record<ContentType, { name: ContentType }>;

export const singletonTypes: readonly string[] = CONTENT_TYPES;

/**
 * In the Studio, each document's text by the rule the site applies to a publish made any other way
 * (lib/shared/plain-text.ts), each problem at its field. Elsewhere the lake and the webhook apply it
 * themselves, so that text a dataset held before the rule does not keep it from opening.
 */
const withPlainText = <T extends (typeof SINGLETONS)[ContentType]>(type: T): T => ({
  ...type,
  // Each singleton may have a translation per language: a document of its type with its `language`.
  fields: [...type.fields, languageField],
  validation: (rule: Rule) =>
    rule.custom((document, context) => {
      if (context.environment !== 'studio') return true;
      const problems = plainTextProblems(document);
      return problems.length > 0 ? problems : true;
    }),
});

export const schemaTypes = [
  ...CONTENT_TYPES.map((type) => withPlainText(SINGLETONS[type])),
  privacyPolicyVersion,
  blockContent,
  link,
  footerColumn,
  featureCard,
  experienceItem,
  faqItem,
  supportCard,
  privacySection,
  seo,
];
