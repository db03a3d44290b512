import { Button, Stack } from '@sanity/ui';
import { useState } from 'react';

import type { NoticeVersion } from '@/lib/shared/back-office';

import { LiveStatus, Problem } from './feedback';
import { useWords } from './i18n';
import { NoticeDetail } from './notice-detail';
import { useOffice } from './office';
import { When } from './parts';
import { DataTable } from './table';
import { useLoad } from './use-async';

/** Each version announced by email, with its counts and first and last send; one opened below the table. */
export function NoticesView() {
  const t = useWords();
  const { api, hosted } = useOffice();
  const versions = useLoad(api.notices);
  const [open, setOpen] = useState<string | null>(null);
  const count = (n: number) => n.toLocaleString();

  return (
    <Stack gap={5}>
      <Stack gap={3}>
        <LiveStatus>{versions.busy ? t('common.loading') : versions.value?.length === 0 ? t('notices.none') : ''}</LiveStatus>
        <Problem error={versions.error} hosted={hosted} />
        {versions.value?.length ? (
          <DataTable<NoticeVersion>
            caption={t('notices.versions')}
            rows={versions.value}
            rowKey={({ date }) => date}
            columns={[
              { title: t('notices.version'), cell: ({ date }) => date },
              { title: t('notices.announced'), cell: ({ announcedAt }) => <When iso={announcedAt} /> },
              { title: t('notices.withdrawn'), cell: ({ withdrawnAt }) => <When iso={withdrawnAt} /> },
              { title: t('notices.told'), cell: ({ told }) => count(told) },
              { title: t('notices.pending'), cell: ({ pending }) => count(pending) },
              { title: t('notices.failed'), cell: ({ failed }) => count(failed) },
              { title: t('notices.cancelled'), cell: ({ cancelled }) => count(cancelled) },
              { title: t('notices.first-sent'), cell: ({ firstSent }) => <When iso={firstSent} /> },
              { title: t('notices.last-sent'), cell: ({ lastSent }) => <When iso={lastSent} /> },
              {
                title: '',
                cell: ({ date }) => (
                  <Button
                    mode={open === date ? 'default' : 'ghost'}
                    text={t('notices.open', { date })}
                    aria-pressed={open === date}
                    onClick={() => setOpen(date)}
                  />
                ),
              },
            ]}
          />
        ) : null}
      </Stack>
      {open ? <NoticeDetail key={open} date={open} /> : null}
    </Stack>
  );
}
