import { defineArrayMember, defineField, defineType } from 'sanity';

/** Rich text for legal copy: paragraphs, subheadings, lists and links, nothing decorative. */
export const blockContent = defineType({
  name: 'blockContent',
  title: 'Rich text',
  type: 'array',
  of: [
    defineArrayMember({
      type: 'block',
      styles: [
        { title: 'Paragraph', value: 'normal' },
        { title: 'Subheading', value: 'h3' },
      ],
      lists: [
        { title: 'Bullets', value: 'bullet' },
        { title: 'Numbered', value: 'number' },
      ],
      marks: {
        decorators: [
          { title: 'Strong', value: 'strong' },
          { title: 'Emphasis', value: 'em' },
        ],
        annotations: [
          defineArrayMember({
            name: 'link',
            type: 'object',
            title: 'Link',
            fields: [
              defineField({
                name: 'href',
                type: 'string',
                title: 'Link target',
                description: 'A site path such as /support, or a full https:// or mailto: address.',
                validation: (rule) =>
                  rule
                    .required()
                    .custom((href) =>
                      typeof href !== 'string' || /^(\/|https:\/\/|mailto:)/.test(href) ? true : 'Start with /, https:// or mailto:',
                    ),
              }),
            ],
          }),
        ],
      },
    }),
  ],
});
