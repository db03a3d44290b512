import { defineArrayMember, defineField, defineType } from 'sanity';

import { VERSION_TYPE } from '@/lib/policy/policy-record';

const text = [
  defineField({ name: 'title', type: 'string' }),
  defineField({ name: 'summary', title: 'Summary of changes', type: 'text', rows: 3 }),
  defineField({ name: 'sections', type: 'array', of: [defineArrayMember({ type: 'privacySection' })] }),
];

/**
 * One version of the privacy policy as visitors could read it (lib/policy/policy-record.ts). The site
 * writes these when the policy is published; in the Studio they are read only, listed under the policy.
 */
export const privacyPolicyVersion = defineType({
  name: VERSION_TYPE,
  title: 'Privacy policy version',
  type: 'document',
  readOnly: true,
  fields: [
    defineField({ name: 'date', title: 'Last updated', type: 'date', description: 'The day this version takes effect.' }),
    defineField({ name: 'publishedAt', title: 'First published (announced)', type: 'datetime' }),
    defineField({ name: 'correctedAt', title: 'Last corrected', type: 'datetime' }),
    defineField({ name: 'material', title: 'Material change', type: 'boolean', description: 'Subscribers were told of it ahead.' }),
    defineField({
      name: 'withdrawnAt',
      title: 'Withdrawn',
      type: 'datetime',
      description: 'Announced, then withdrawn before its date: it never took effect.',
    }),
    ...text,
    defineField({
      name: 'replaced',
      title: 'Texts replaced by corrections',
      description: 'What this version said before each correction, oldest first.',
      type: 'array',
      of: [
        defineArrayMember({
          name: 'replacedPolicyText',
          type: 'object',
          fields: [defineField({ name: 'replacedAt', title: 'Replaced', type: 'datetime' }), ...text],
          preview: { select: { title: 'replacedAt', subtitle: 'title' } },
        }),
      ],
    }),
    defineField({
      name: 'translations',
      title: 'Texts in other languages',
      description:
        "This version's text in each other language, as its translation was last published. One recorded before the version's last correction is out of date: readers get the governing text instead.",
      type: 'array',
      of: [
        defineArrayMember({
          name: 'policyTranslation',
          type: 'object',
          fields: [
            defineField({ name: 'language', type: 'string' }),
            defineField({ name: 'recordedAt', title: 'Recorded', type: 'datetime' }),
            ...text,
          ],
          preview: { select: { title: 'language', subtitle: 'recordedAt' } },
        }),
      ],
    }),
  ],
  orderings: [{ title: 'Newest first', name: 'dateDesc', by: [{ field: 'date', direction: 'desc' }] }],
  preview: { select: { title: 'date', subtitle: 'summary' } },
});
