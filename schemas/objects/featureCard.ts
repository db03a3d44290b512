import { defineField, defineType } from 'sanity';

const FEATURE_ICONS = [
  { title: 'Radius (map pin)', value: 'radius' },
  { title: 'Feed (lightning)', value: 'feed' },
  { title: 'Community (people)', value: 'community' },
  { title: 'Privacy (shield)', value: 'shield' },
] as const;

export const featureCard = defineType({
  name: 'featureCard',
  title: 'Feature card',
  type: 'object',
  fields: [
    defineField({
      name: 'title',
      type: 'string',
      description: 'Write {radius} where the radius from Site settings belongs, e.g. "{radius}-Mile Radius".',
      validation: (rule) => rule.required().max(60),
    }),
    defineField({ name: 'text', type: 'text', rows: 3, validation: (rule) => rule.required().max(300) }),
    defineField({
      name: 'icon',
      type: 'string',
      options: { list: [...FEATURE_ICONS], layout: 'radio' },
      validation: (rule) => rule.required(),
    }),
  ],
  preview: { select: { title: 'title', subtitle: 'text' } },
});
