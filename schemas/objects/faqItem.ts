import { defineField, defineType } from 'sanity';

export const faqItem = defineType({
  name: 'faqItem',
  title: 'Question and answer',
  type: 'object',
  fields: [
    defineField({ name: 'question', type: 'string', validation: (rule) => rule.required().max(160) }),
    defineField({ name: 'answer', type: 'text', rows: 4, validation: (rule) => rule.required().max(1500) }),
  ],
  preview: { select: { title: 'question', subtitle: 'answer' } },
});
