import { defineArrayMember, defineField, defineType } from 'sanity';

import { earlierDateProblem, SUMMARY_MAX, VERSION_TYPE } from '@/lib/content/policy-record';
import { SANITY_API_VERSION } from '@/lib/env/public';

import { copyField } from '../fields';
import { policyVersionsCopy } from './policy-versions-copy';

export const PRIVACY_SECTION_COUNT = 7;

/** A policy whose text changed after its stated date misleads readers; warn before publishing. */
export function lastUpdatedWarning(lastUpdated: string | undefined, updatedAt: string | undefined): true | string {
  if (!lastUpdated || !updatedAt) return true;
  // The editor's own calendar day (the Studio runs in their browser), not UTC's.
  const edited = new Date(updatedAt);
  const day = [edited.getFullYear(), edited.getMonth() + 1, edited.getDate()].map((n) => String(n).padStart(2, '0')).join('-');
  return day > lastUpdated
    ? `The policy was edited on ${day}, after this date. Set "Last updated" to the day the change takes effect.`
    : true;
}

export const privacyPolicy = defineType({
  name: 'privacyPolicy',
  title: 'Privacy policy',
  type: 'document',
  fields: [
    defineField({ name: 'title', type: 'string', validation: (rule) => rule.required().max(80) }),
    defineField({
      name: 'lastUpdated',
      type: 'date',
      description: 'Shown to readers as the date of this version. Change it whenever the wording changes.',
      validation: (rule) => [
        rule.required(),
        rule
          .custom((value, context) => lastUpdatedWarning(value, (context.document as { _updatedAt?: string } | undefined)?._updatedAt))
          .warning(),
        // In the Studio; a publish by any other way is checked by the site that keeps the record.
        rule.custom(async (value, context) => {
          if (context.environment !== 'studio') return true;
          const client = context.getClient({ apiVersion: SANITY_API_VERSION });
          const latest = await client.fetch<string | null>('*[_type == $type] | order(date desc)[0].date', { type: VERSION_TYPE });
          return earlierDateProblem(value, latest ?? undefined) ?? true;
        }),
      ],
    }),
    defineField({
      name: 'summary',
      title: 'Summary of changes',
      type: 'text',
      rows: 2,
      description: 'What changed in this version, in a sentence or two. Shown with the policy while this version is current.',
      validation: (rule) => rule.max(SUMMARY_MAX),
    }),
    copyField('lastUpdatedLabel', {
      title: '"Last updated" label',
      description: 'Shown before the date, e.g. "Last updated: November 22, 2026".',
      max: 40,
    }),
    defineField({
      name: 'sections',
      type: 'array',
      of: [defineArrayMember({ type: 'privacySection' })],
      validation: (rule) =>
        rule.required().length(PRIVACY_SECTION_COUNT).error(`The policy has exactly ${PRIVACY_SECTION_COUNT} sections.`),
    }),
    defineField({ name: 'seo', type: 'seo', validation: (rule) => rule.required() }),
    policyVersionsCopy,
  ],
  preview: { select: { title: 'title', subtitle: 'lastUpdated' } },
});
