import { Button, Card, Flex, Stack, Text } from '@sanity/ui';
import { useCallback, useEffect, useRef } from 'react';

import type { NoticeRecipient } from '@/lib/shared/back-office';

import { listStatus, LiveStatus, Problem } from './feedback';
import { named, useWords } from './i18n';
import { useOffice } from './office';
import { LoadMore, When } from './parts';
import { DataTable } from './table';
import { ToldCheck } from './told-check';
import { useAction, usePaged } from './use-async';

const HEADING_ID = 'back-office-notice-heading';

/**
 * One announced version: everyone it was sent to and when (an erased person's row stays, without the
 * address), the CSV of all of them for a reviewer's file, and "was this address told?".
 */
export function NoticeDetail({ date }: { date: string }) {
  const t = useWords();
  const { api, hosted } = useOffice();
  const heading = useRef<HTMLHeadingElement>(null);
  const csv = useAction(async () => {
    await api.noticeCsv(date);
    return true;
  });
  // Opening a version moves the focus to it, so a keyboard or screen reader user lands where it is.
  useEffect(() => heading.current?.focus(), []);

  return (
    <Card as="section" padding={4} radius={2} border aria-labelledby={HEADING_ID}>
      <Stack gap={5}>
        <Flex gap={3} align="center" justify="space-between" wrap="wrap">
          <Text as="h2" size={2} weight="semibold" id={HEADING_ID} ref={heading} tabIndex={-1}>
            {t('notices.heading', { date })}
          </Text>
          <Button mode="ghost" text={t('notices.csv')} loading={csv.busy} disabled={csv.busy} onClick={() => void csv.start()} />
        </Flex>
        <LiveStatus>{csv.value ? t('notices.csv-done', { date }) : ''}</LiveStatus>
        <Problem error={csv.error} hosted={hosted} />
        <ToldCheck date={date} />
        <Recipients date={date} />
      </Stack>
    </Card>
  );
}

function Recipients({ date }: { date: string }) {
  const t = useWords();
  const { api, hosted } = useOffice();
  const load = useCallback((cursor: string | null) => api.recipients(date, cursor), [api, date]);
  const list = usePaged(load);
  return (
    <Stack gap={3}>
      <LiveStatus>{listStatus(t, list, 'notices.recipients-none', 'notices.recipients-shown')}</LiveStatus>
      <Problem error={list.error} hosted={hosted} />
      {list.rows?.length ? (
        <DataTable<NoticeRecipient>
          caption={t('notices.recipients', { date })}
          rows={list.rows}
          rowKey={(_, index) => String(index)}
          columns={[
            { title: t('common.address'), cell: ({ email }) => email ?? t('notices.erased') },
            { title: t('common.status'), cell: ({ status }) => named(t, 'status', status) },
            { title: t('common.sent'), cell: ({ sentAt }) => <When iso={sentAt} /> },
          ]}
        />
      ) : null}
      <LoadMore next={list.next} busy={list.busy} label={t('notices.load-more')} onMore={list.more} />
    </Stack>
  );
}
