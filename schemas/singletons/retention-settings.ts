import { defineField } from 'sanity';

import { RETENTION_DEFAULTS, RETENTION_FIELDS, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS, type Retention } from '@/lib/shared/retention';

/** Where the fields sit in Site settings: together, under one heading. */
export const retentionFieldset = {
  name: 'retention',
  title: 'Keeping support requests',
  description:
    'How long the store keeps the requests sent from the support page: the site deletes each one by itself once it is older than this.',
  options: { collapsible: true, collapsed: false },
};

const days = (key: keyof Retention, title: string, description: string) =>
  defineField({
    name: RETENTION_FIELDS[key],
    title,
    type: 'number',
    fieldset: retentionFieldset.name,
    description: `${description} The privacy policy names this number where its text says {${key}}. Default ${RETENTION_DEFAULTS[key]}.`,
    initialValue: RETENTION_DEFAULTS[key],
    validation: (rule) => rule.required().integer().min(RETENTION_MIN_DAYS).max(RETENTION_MAX_DAYS),
  });

/** The site settings that set how long support requests are kept (lib/shared/retention.ts). */
export const retentionSettings = [
  days(
    'answeredDays',
    'Delete answered requests after (days)',
    'A request marked answered in the Back office is deleted this many days after it was marked.',
  ),
  days(
    'unansweredDays',
    'Delete requests never answered after (days)',
    'A request nobody marked answered is deleted this many days after it was sent.',
  ),
];
