import { defineField, defineType } from 'sanity';

export const experienceItem = defineType({
  name: 'experienceItem',
  title: 'Experience step',
  type: 'object',
  fields: [
    defineField({ name: 'title', type: 'string', validation: (rule) => rule.required().max(60) }),
    defineField({ name: 'text', type: 'text', rows: 3, validation: (rule) => rule.required().max(300) }),
  ],
  preview: { select: { title: 'title', subtitle: 'text' } },
});
