import { defineArrayMember, defineField, defineType } from 'sanity';

import { SUMMARY_MAX, VERSION_TYPE } from '@/lib/policy/policy-record';
import { policyClock, scheduleProblem } from '@/lib/policy/policy-schedule';
import { SANITY_API_VERSION } from '@/lib/env/public';

import { copyField } from '../fields';
import { policyVersionsCopy } from './policy-versions-copy';

export const PRIVACY_SECTION_COUNT = 7;

/**
 * What the Studio's check of "Last updated" reads: the record's dates, the settings it applies, and the
 * translations published or in the release being checked (`$release`), which publish with the policy.
 */
const SCHEDULE_QUERY = `{
  "record": *[_type == $type && !(_id in path("drafts.**")) && !(_id in path("versions.**"))]{ date, publishedAt, withdrawnAt },
  "settings": *[_id == "siteSettings"][0]{ timeZone, noticePeriodDays, languages[]{ tag }, defaultLanguage, announceBeforeTranslations },
  "translations": *[_type == "privacyPolicy" && defined(language) && (!(_id in path("drafts.**")) && !(_id in path("versions.**")) || _id in path($release))]{ _id, _type, language, lastUpdated }
}`;
type ScheduleRead = {
  record: { date: string; publishedAt: string; withdrawnAt?: string }[];
  settings: Record<string, unknown> | null;
  translations: { _id: string; _type: string }[];
};

/** The documents of the release that `id` belongs to, as a GROQ path: none for a draft or a published document. */
const releaseOf = (id: string) => (id.startsWith('versions.') ? `versions.${id.split('.')[1]}.**` : 'versions.none.**');

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
      description:
        'The day this version takes effect, shown to readers. Change it whenever the wording changes. A later day announces the version: readers see it beside the current one, with a notice on every page, until that day.',
      validation: (rule) => [
        rule.required(),
        rule
          .custom((value, context) => lastUpdatedWarning(value, (context.document as { _updatedAt?: string } | undefined)?._updatedAt))
          .warning(),
        // In the Studio, by the rules the site applies to a publish made any other way (policy-schedule.ts).
        rule.custom(async (_value, context) => {
          if (context.environment !== 'studio' || !context.document) return true;
          const { record, settings, translations } = await context
            .getClient({ apiVersion: SANITY_API_VERSION })
            .fetch<ScheduleRead>(SCHEDULE_QUERY, { type: VERSION_TYPE, release: releaseOf(context.document._id) }, { perspective: 'raw' });
          return scheduleProblem(context.document, record, policyClock(settings), translations) ?? true;
        }),
      ],
    }),
    defineField({
      name: 'materialChange',
      title: 'Material change',
      type: 'boolean',
      description:
        'Tick when readers must be told ahead (new data collected, new purposes, new recipients, fewer rights). Then "Last updated" must be at least the notice period (Site settings) after the first publish, every page carries a notice until that day, and each confirmed subscriber is emailed once.',
      initialValue: false,
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
