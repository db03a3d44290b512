import { defineField, defineType } from 'sanity';

export const link = defineType({
  name: 'link',
  title: 'Link',
  type: 'object',
  fields: [
    defineField({ name: 'label', type: 'string', validation: (rule) => rule.required().max(60) }),
    defineField({
      name: 'href',
      title: 'Target',
      type: 'string',
      description:
        'A site path such as /privacy, or a full https:// address. Leave empty while there is no page yet: the label shows as plain text.',
      validation: (rule) =>
        rule.custom((href) => (!href || /^(\/|https:\/\/|mailto:)/.test(href) ? true : 'Start with /, https:// or mailto:')),
    }),
  ],
  preview: { select: { title: 'label', subtitle: 'href' } },
});
