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

/** Singletons: one document each, its _id equal to its type name. */
export const singletonTypes: readonly string[] = [siteSettings, landingPage, supportPage, privacyPolicy].map((type) => type.name);

export const schemaTypes = [
  siteSettings,
  landingPage,
  supportPage,
  privacyPolicy,
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
