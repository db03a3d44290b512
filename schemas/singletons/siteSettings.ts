import { defineArrayMember, defineField, defineType } from 'sanity';

export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Site settings',
  type: 'document',
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
    defineField({ name: 'appStoreUrl', title: 'App Store URL', type: 'url', validation: (rule) => rule.uri({ scheme: ['https'] }) }),
    defineField({ name: 'playStoreUrl', title: 'Play Store URL', type: 'url', validation: (rule) => rule.uri({ scheme: ['https'] }) }),
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
  ],
  preview: { prepare: () => ({ title: 'Site settings' }) },
});
