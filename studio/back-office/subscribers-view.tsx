import { Card, Stack, Text } from '@sanity/ui';

import type { OfficeSubscriber, SubscriberCount } from '@/lib/shared/back-office';

import { AddressForm } from './fields';
import { LiveStatus, Problem } from './feedback';
import { named, useWords } from './i18n';
import { useOffice } from './office';
import { LanguageTag, SubscriptionLine } from './parts';
import { DataTable } from './table';
import { useAction, useLoad } from './use-async';

/** How many subscribers there are in each state and language, and one address looked up (a read the server logs). */
export function SubscribersView() {
  const t = useWords();
  const { api, hosted } = useOffice();
  const counts = useLoad(api.subscriberCounts);
  const lookup = useAction(api.findSubscriber);
  const found = lookup.value;

  return (
    <Stack gap={5}>
      <Stack gap={3}>
        <LiveStatus>{counts.busy ? t('common.loading') : counts.value?.length === 0 ? t('subscribers.no-counts') : ''}</LiveStatus>
        <Problem error={counts.error} hosted={hosted} />
        {counts.value?.length ? (
          <DataTable<SubscriberCount>
            caption={t('subscribers.counts')}
            rows={counts.value}
            rowKey={({ status, language }) => `${status}/${language}`}
            columns={[
              { title: t('common.status'), cell: ({ status }) => named(t, 'status', status) },
              { title: t('common.language'), cell: ({ language }) => <LanguageTag tag={language} /> },
              { title: t('common.count'), cell: ({ count }) => count.toLocaleString() },
            ]}
          />
        ) : null}
      </Stack>
      <Card padding={3} radius={2} border>
        <Stack gap={3}>
          <AddressForm
            label={t('subscribers.address')}
            button={t('subscribers.lookup-button')}
            formLabel={t('subscribers.lookup')}
            busy={lookup.busy}
            onSubmit={(email) => void lookup.start(email)}
          />
          <LiveStatus>{found === null ? t('subscribers.not-found') : found ? <Subscriber subscriber={found} /> : ''}</LiveStatus>
          <Problem error={lookup.error} hosted={hosted} />
        </Stack>
      </Card>
    </Stack>
  );
}

function Subscriber({ subscriber }: { subscriber: OfficeSubscriber }) {
  return (
    <Stack gap={2}>
      <Text size={1} weight="medium">
        {subscriber.email}
      </Text>
      <SubscriptionLine subscriber={subscriber} />
    </Stack>
  );
}
