import { Stack } from '@sanity/ui';
import { useCallback } from 'react';

import type { AccessEntry } from '@/lib/shared/back-office';

import { listStatus, LiveStatus, Problem } from './feedback';
import { named, useWords } from './i18n';
import { useOffice } from './office';
import { LoadMore, When } from './parts';
import { DataTable } from './table';
import { usePaged } from './use-async';

/** For administrators: every read, export and erase of someone's data, newest first: who, when, what, how many rows. */
export function AccessLogView() {
  const t = useWords();
  const { api, hosted } = useOffice();
  const load = useCallback((cursor: string | null) => api.accessLog(cursor), [api]);
  const log = usePaged(load);
  return (
    <Stack gap={3}>
      <LiveStatus>{listStatus(t, log, 'log.none', 'log.shown')}</LiveStatus>
      <Problem error={log.error} hosted={hosted} />
      {log.rows?.length ? (
        <DataTable<AccessEntry>
          caption={t('log.list')}
          rows={log.rows}
          rowKey={(_, index) => String(index)}
          columns={[
            { title: t('log.at'), cell: ({ at }) => <When iso={at} /> },
            { title: t('log.actor'), cell: ({ actor }) => actor },
            { title: t('log.action'), cell: ({ action }) => named(t, 'action', action) },
            { title: t('log.rows'), cell: ({ rows }) => rows.toLocaleString() },
            {
              title: t('log.subject'),
              cell: ({ subject }) => (subject ? <code title={subject}>{subject.slice(0, 12)}…</code> : t('common.none')),
            },
          ]}
        />
      ) : null}
      <LoadMore next={log.next} busy={log.busy} label={t('log.load-more')} onMore={log.more} />
    </Stack>
  );
}
