import { defineField, defineType } from 'sanity';

export const seo = defineType({
  name: 'seo',
  title: 'Search and sharing',
  type: 'object',
  options: { collapsible: true, collapsed: true },
  fields: [
    defineField({ name: 'title', type: 'string', validation: (rule) => rule.required().max(70) }),
    defineField({
      name: 'description',
      type: 'text',
      rows: 2,
      validation: (rule) => [rule.required(), rule.max(160).warning('Search engines cut descriptions past about 160 characters.')],
    }),
  ],
});
