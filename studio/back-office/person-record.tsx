import { Stack, Text } from '@sanity/ui';

import type { OfficeRequest, OfficeSubscriber, PersonData, PersonEmail } from '@/lib/shared/back-office';

import { named, useWords } from './i18n';
import { LanguageTag, SubscriptionLine, When } from './parts';
import { DataTable } from './table';

/** Everything held for one address, as the server read it: its requests, its subscription, the emails sent to it. */
export function PersonRecord({ person }: { person: PersonData }) {
  const t = useWords();
  const { requests, subscription, emails } = person;
  return (
    <Stack as="section" gap={5} aria-labelledby="back-office-person-heading">
      <Stack gap={2}>
        <Text as="h2" size={2} weight="semibold" id="back-office-person-heading">
          {t('person.held', { email: person.email })}
        </Text>
        <Text size={1} muted>
          {t('person.held-summary', { requests: requests.length, subscription: subscription ? 1 : 0, emails: emails.length })}
        </Text>
      </Stack>
      {requests.length ? (
        <DataTable<OfficeRequest>
          caption={t('person.requests')}
          rows={requests}
          rowKey={({ id }) => id}
          columns={[
            { title: t('common.created'), cell: ({ createdAt }) => <When iso={createdAt} /> },
            { title: t('requests.type'), cell: ({ type }) => named(t, 'type', type) },
            { title: t('common.language'), cell: ({ language }) => <LanguageTag tag={language} /> },
            { title: t('common.status'), cell: ({ status }) => named(t, 'status', status) },
            { title: t('requests.subject'), cell: ({ subject, language }) => <span lang={language}>{subject}</span> },
          ]}
        />
      ) : (
        <Text size={1}>{t('person.no-requests')}</Text>
      )}
      <Subscription subscription={subscription} />
      <Emails emails={emails} />
    </Stack>
  );
}

function Subscription({ subscription }: { subscription: OfficeSubscriber | null }) {
  const t = useWords();
  return (
    <Stack gap={2}>
      <Text as="h3" size={1} weight="semibold">
        {t('person.subscription')}
      </Text>
      {subscription ? <SubscriptionLine subscriber={subscription} /> : <Text size={1}>{t('person.no-subscription')}</Text>}
    </Stack>
  );
}

function Emails({ emails }: { emails: PersonEmail[] }) {
  const t = useWords();
  return emails.length ? (
    <DataTable<PersonEmail>
      caption={t('person.emails')}
      rows={emails}
      rowKey={({ kind, ref, createdAt }) => `${kind}/${ref}/${createdAt}`}
      columns={[
        { title: t('person.kind'), cell: ({ kind }) => named(t, 'kind', kind) },
        { title: t('person.ref'), cell: ({ ref }) => ref },
        { title: t('common.status'), cell: ({ status }) => named(t, 'status', status) },
        { title: t('common.created'), cell: ({ createdAt }) => <When iso={createdAt} /> },
        { title: t('common.sent'), cell: ({ sentAt }) => <When iso={sentAt} /> },
      ]}
    />
  ) : (
    <Text size={1}>{t('person.no-emails')}</Text>
  );
}
