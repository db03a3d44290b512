import { defineArrayMember, defineField, defineType } from 'sanity';

import { copyField, copyGroup } from '../fields';

export const supportPage = defineType({
  name: 'supportPage',
  title: 'Support page',
  type: 'document',
  fields: [
    defineField({ name: 'heading', type: 'string', validation: (rule) => rule.required().max(80) }),
    defineField({ name: 'intro', type: 'text', rows: 2, validation: (rule) => rule.required().max(240) }),
    defineField({
      name: 'cards',
      type: 'array',
      of: [defineArrayMember({ type: 'supportCard' })],
      validation: (rule) =>
        rule
          .required()
          .length(3)
          .custom((cards) => {
            const types = (cards ?? []).map((card) => (card as { requestType?: string }).requestType);
            return new Set(types).size === types.length ? true : 'Each card needs its own request type.';
          }),
    }),
    defineField({
      name: 'contact',
      type: 'object',
      description: 'Hours and reply time come from Site settings.',
      fields: [
        defineField({ name: 'heading', type: 'string', validation: (rule) => rule.required().max(80) }),
        defineField({ name: 'text', type: 'text', rows: 2, validation: (rule) => rule.required().max(240) }),
        defineField({ name: 'replyTimeLabel', type: 'string', validation: (rule) => rule.required().max(40) }),
        defineField({ name: 'hoursLabel', title: 'Support hours label', type: 'string', validation: (rule) => rule.required().max(40) }),
      ],
      validation: (rule) => rule.required(),
    }),
    copyGroup(
      'form',
      'Request form',
      'The form each card opens (its heading is the card\'s "Form title"). Messages are in Site settings.',
      [
        copyField('emailLabel', { title: 'Email label', max: 40 }),
        copyField('subjectLabel', { title: 'Subject label', max: 40 }),
        copyField('messageLabel', { title: 'Message label', max: 40 }),
        copyField('cancel', { title: 'Cancel button', max: 20 }),
        copyField('send', { title: 'Send button', max: 20 }),
        copyField('sending', { title: 'Send button while sending', max: 20 }),
        copyField('sent', { title: 'Send button once sent', max: 20 }),
        copyField('error', { title: 'Send button after a failure', max: 20 }),
        copyField('success', { title: 'Message once sent', max: 160 }),
      ],
    ),
    defineField({ name: 'faqHeading', title: 'FAQ heading', type: 'string', validation: (rule) => rule.required().max(80) }),
    defineField({
      name: 'faq',
      title: 'FAQ',
      type: 'array',
      of: [defineArrayMember({ type: 'faqItem' })],
      validation: (rule) => rule.required().min(1).max(12),
    }),
    defineField({ name: 'seo', type: 'seo', validation: (rule) => rule.required() }),
  ],
  preview: { prepare: () => ({ title: 'Support page' }) },
});
