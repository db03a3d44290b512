import { defineField, defineType } from 'sanity';

export const privacySection = defineType({
  name: 'privacySection',
  title: 'Policy section',
  type: 'object',
  fields: [
    defineField({ name: 'heading', type: 'string', validation: (rule) => rule.required().max(80) }),
    defineField({
      name: 'body',
      type: 'blockContent',
      description:
        'Write {radius} where the radius from Site settings belongs, and {answeredDays} or {unansweredDays} where the days support requests are kept (Site settings, Keeping support requests).',
      validation: (rule) => rule.required().min(1),
    }),
  ],
  preview: { select: { title: 'heading' } },
});
