import { defineField, defineType } from 'sanity';

import { REQUEST_TYPE_TITLES, REQUEST_TYPES } from '@/lib/forms/request-types';

export const supportCard = defineType({
  name: 'supportCard',
  title: 'Support card',
  type: 'object',
  fields: [
    defineField({ name: 'title', type: 'string', validation: (rule) => rule.required().max(60) }),
    defineField({ name: 'text', type: 'text', rows: 2, validation: (rule) => rule.required().max(200) }),
    defineField({
      name: 'modalTitle',
      title: 'Form title',
      type: 'string',
      description: 'Heading of the request form this card opens.',
      validation: (rule) => rule.required().max(60),
    }),
    defineField({
      name: 'requestType',
      type: 'string',
      description: 'What the request is stored as.',
      options: { list: REQUEST_TYPES.map((value) => ({ title: REQUEST_TYPE_TITLES[value], value })), layout: 'radio' },
      validation: (rule) => rule.required(),
    }),
  ],
  preview: { select: { title: 'title', subtitle: 'requestType' } },
});
