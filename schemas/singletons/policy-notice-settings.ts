import { defineField } from 'sanity';

import { DEFAULT_NOTICE_DAYS } from '@/lib/policy/policy-schedule';
import { DEFAULT_TIME_ZONE, isTimeZone } from '@/lib/shared/site-time';

/**
 * The site settings legal reviewers keep for changes to the privacy policy: how long ahead a
 * material change must be announced, and the time zone whose midnight starts a version's day.
 */
export const policyNoticeSettings = [
  defineField({
    name: 'noticePeriodDays',
    title: 'Notice period for material changes (days)',
    type: 'number',
    description:
      'A privacy policy marked as a material change takes effect at least this many days after it is first published. GitHub gives 30, Stripe 33 or more.',
    initialValue: DEFAULT_NOTICE_DAYS,
    validation: (rule) => rule.required().integer().min(1).max(365),
  }),
  defineField({
    name: 'timeZone',
    title: 'Time zone',
    type: 'string',
    description: `A new version of the privacy policy takes effect at midnight of its date in this zone: an IANA name such as America/Denver or Europe/Berlin. Default ${DEFAULT_TIME_ZONE}.`,
    initialValue: DEFAULT_TIME_ZONE,
    validation: (rule) =>
      rule.required().custom((value) => isTimeZone(value) || `"${String(value)}" is not a time zone name, such as America/Denver or UTC.`),
  }),
  defineField({
    name: 'announceBeforeTranslations',
    title: 'Announce a material change before every language has its text',
    type: 'boolean',
    description:
      'Off (the default): a material change is published only once each language has its translation of it, so one notice period runs for every reader. On: the default language may announce it alone, and readers of the others see its text until theirs is published.',
    initialValue: false,
  }),
];
