import { defineArrayMember, defineField, defineType } from 'sanity';

import { copyField } from '../fields';

export const landingPage = defineType({
  name: 'landingPage',
  title: 'Landing page',
  type: 'document',
  groups: [
    { name: 'hero', title: 'Hero', default: true },
    { name: 'sections', title: 'Sections' },
    { name: 'seo', title: 'Search and sharing' },
  ],
  fields: [
    defineField({
      name: 'hero',
      type: 'object',
      group: 'hero',
      fields: [
        defineField({ name: 'headline', type: 'string', validation: (rule) => rule.required().max(80) }),
        defineField({
          name: 'text',
          type: 'text',
          rows: 2,
          description: 'Write {radius} where the radius from Site settings belongs.',
          validation: (rule) => rule.required().max(240),
        }),
        defineField({ name: 'appStoreLabel', type: 'string', validation: (rule) => rule.required().max(40) }),
        defineField({ name: 'playStoreLabel', type: 'string', validation: (rule) => rule.required().max(40) }),
        defineField({
          name: 'scrollLabel',
          title: 'Down-arrow label (screen readers)',
          type: 'string',
          validation: (rule) => rule.required().max(60),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'features',
      type: 'object',
      group: 'sections',
      fields: [
        defineField({ name: 'heading', type: 'string', validation: (rule) => rule.required().max(80) }),
        defineField({ name: 'intro', type: 'text', rows: 2, validation: (rule) => rule.required().max(240) }),
        defineField({
          name: 'cards',
          type: 'array',
          of: [defineArrayMember({ type: 'featureCard' })],
          validation: (rule) => rule.required().length(4).error('The layout shows exactly four feature cards.'),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'experience',
      type: 'object',
      group: 'sections',
      fields: [
        defineField({ name: 'heading', type: 'string', validation: (rule) => rule.required().max(80) }),
        defineField({ name: 'intro', type: 'text', rows: 2, validation: (rule) => rule.required().max(240) }),
        defineField({
          name: 'steps',
          type: 'array',
          of: [defineArrayMember({ type: 'experienceItem' })],
          validation: (rule) => rule.required().min(1).max(6),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'faq',
      title: 'FAQ',
      type: 'object',
      group: 'sections',
      fields: [
        defineField({ name: 'heading', type: 'string', validation: (rule) => rule.required().max(80) }),
        defineField({
          name: 'items',
          type: 'array',
          of: [defineArrayMember({ type: 'faqItem' })],
          validation: (rule) => rule.required().min(1).max(12),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'stayUpdated',
      type: 'object',
      group: 'sections',
      fields: [
        defineField({ name: 'heading', type: 'string', validation: (rule) => rule.required().max(80) }),
        defineField({ name: 'text', type: 'text', rows: 2, validation: (rule) => rule.required().max(240) }),
        copyField('emailLabel', { title: 'Email label (screen readers)', max: 60 }),
        defineField({ name: 'placeholder', type: 'string', validation: (rule) => rule.required().max(60) }),
        defineField({ name: 'buttonLabel', type: 'string', validation: (rule) => rule.required().max(30) }),
        copyField('pendingLabel', { title: 'Button label while subscribing', max: 30 }),
        defineField({ name: 'successMessage', type: 'string', validation: (rule) => rule.required().max(160) }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'seo', type: 'seo', group: 'seo', validation: (rule) => rule.required() }),
  ],
  preview: { prepare: () => ({ title: 'Landing page' }) },
});
