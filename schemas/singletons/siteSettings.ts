import { defineArrayMember, defineField, defineType } from 'sanity';

import { FIELD_NAMES, MESSAGE_CODES, MESSAGE_TOKENS, type FieldName, type MessageCode } from '@/lib/forms/messages';

import { copyField, copyGroup } from '../fields';
import { siteLanguageFields } from '../languages';
import { policyNoticeSettings } from './policy-notice-settings';
import { retentionFieldset, retentionSettings } from './retention-settings';
import { subscriptionCopy } from './subscription-copy';

/** How the Studio names each form message; every code in lib/forms/messages.ts needs one. */
const MESSAGE_TITLES: Record<MessageCode, string> = {
  empty: 'A field is empty',
  invalidEmail: 'Not an email address',
  invisibleEmail: 'Invisible characters in the email',
  invalidType: 'Unknown request type',
  unsupported: 'Characters that cannot be stored',
  tooLong: 'A field is too long',
  blank: 'A field is blank',
  rateLimited: 'Too many requests from one visitor',
  siteBusy: 'Too many requests on the whole site',
  unreadable: 'The form could not be read',
  failed: 'Sending failed (try again)',
};

const FIELD_TITLES: Record<FieldName, string> = { email: 'Email', subject: 'Subject', message: 'Message' };

/** Empty is allowed (the listing may not exist yet), but the Studio says what visitors then see. */
const storeUrl = (name: string, title: string, store: string) =>
  defineField({
    name,
    title,
    type: 'url',
    validation: (rule) => [
      rule.uri({ scheme: ['https'] }),
      rule.required().warning(`Without a URL the ${store} button is plain text, with the line below instead of a link.`),
    ],
  });

const storeLine = (name: string, store: string, url: string) =>
  copyField(name, {
    title: `${store} line without a URL`,
    description: `Shown under the ${store} button while "${url}" is empty. {productName} becomes the product name.`,
    max: 80,
    tokens: ['productName'],
  });

export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Site settings',
  type: 'document',
  fieldsets: [retentionFieldset],
  fields: [
    defineField({ name: 'productName', type: 'string', validation: (rule) => rule.required().max(40) }),
    defineField({
      name: 'description',
      type: 'text',
      rows: 2,
      description: 'Default description for search engines and link previews.',
      validation: (rule) => rule.required().max(160),
    }),
    defineField({
      name: 'radiusMiles',
      title: 'Radius in miles',
      type: 'number',
      description:
        'The one source of every radius the site mentions. Texts say {radius} where this number appears (hero, feature card, privacy policy).',
      validation: (rule) => rule.required().greaterThan(0).max(50),
    }),
    storeUrl('appStoreUrl', 'App Store URL', 'App Store'),
    storeLine('appStoreFallback', 'App Store', 'App Store URL'),
    storeUrl('playStoreUrl', 'Play Store URL', 'Play Store'),
    storeLine('playStoreFallback', 'Play Store', 'Play Store URL'),
    defineField({
      name: 'headerLinks',
      type: 'array',
      description: 'Navigation in the header. Section anchors of the landing page are /#features, /#experience and /#faq.',
      of: [defineArrayMember({ type: 'link' })],
      validation: (rule) => rule.required().min(1).max(6),
    }),
    defineField({
      name: 'footerColumns',
      type: 'array',
      description: 'Legal, Company and Follow Us; links without a target show as plain text.',
      of: [defineArrayMember({ type: 'footerColumn' })],
      validation: (rule) => rule.required().min(1).max(4),
    }),
    defineField({
      name: 'supportHours',
      type: 'string',
      validation: (rule) => rule.required().max(120),
    }),
    defineField({
      name: 'replyTime',
      type: 'string',
      description: 'How soon a reply typically comes, as a sentence.',
      validation: (rule) => rule.required().max(160),
    }),
    ...policyNoticeSettings,
    ...retentionSettings,
    ...siteLanguageFields,
    copyGroup('chrome', 'Every page', 'Texts around the pages: the skip link, the footer, the way back, the share image.', [
      copyField('skipLink', { title: 'Skip link (keyboard users)', max: 40 }),
      copyField('languageNav', { title: 'Name of the list of languages (screen readers)', max: 40 }),
      copyField('rightsReserved', { title: 'Rights line', description: 'After "© <year> <product name>." in the footer.', max: 80 }),
      copyField('backHome', { title: 'Back to the home page (support and privacy pages)', max: 40 }),
      copyField('shareImageAlt', {
        title: 'Share image description',
        description: 'The share image in link previews, for people who cannot see it.',
        max: 120,
      }),
    ]),
    copyGroup('notFound', 'Page not found (404)', 'The page for an address that does not exist.', [
      copyField('label', { description: 'The small line above the heading.', max: 20 }),
      copyField('heading', { max: 80 }),
      copyField('text', { multiline: true, max: 240 }),
      copyField('description', { title: 'Description for search engines', max: 160 }),
      copyField('homeLink', { title: 'Link to the home page', max: 40 }),
      copyField('supportLink', { title: 'Link to the support page', max: 40 }),
    ]),
    copyGroup('errorPage', 'Error page', 'What a visitor sees when a page fails to show.', [
      copyField('label', { description: 'The small line above the heading.', max: 20 }),
      copyField('heading', { max: 80 }),
      copyField('text', { multiline: true, max: 240 }),
      copyField('retry', { title: 'Try-again button', max: 40 }),
      copyField('homeLink', { title: 'Link to the home page', max: 40 }),
    ]),
    copyGroup(
      'formMessages',
      'Form messages',
      'What the support form and the sign-up form say when something is wrong.',
      MESSAGE_CODES.map((code) =>
        copyField(code, {
          title: MESSAGE_TITLES[code],
          description:
            MESSAGE_TOKENS[code].length > 0
              ? `Write ${MESSAGE_TOKENS[code].map((token) => `{${token}}`).join(' and ')} where they belong.`
              : undefined,
          max: 160,
          tokens: MESSAGE_TOKENS[code],
        }),
      ),
    ),
    copyGroup(
      'fieldNames',
      'Field names in messages',
      'How the form messages name each field ({field}).',
      FIELD_NAMES.map((name) => copyField(name, { title: FIELD_TITLES[name], max: 40 })),
    ),
    subscriptionCopy,
  ],
  preview: { prepare: () => ({ title: 'Site settings' }) },
});
