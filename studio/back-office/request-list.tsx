import { Box, Button, Card, Stack } from '@sanity/ui';
import { useCallback, useEffect, useRef, useState } from 'react';

import type { OfficeRequest, RequestFilter } from '@/lib/shared/back-office';

import { listStatus, LiveStatus, Problem } from './feedback';
import { useWords } from './i18n';
import { useOffice } from './office';
import { LoadMore } from './parts';
import { RequestDetail } from './request-detail';
import { RequestMeta } from './request-meta';
import { usePaged } from './use-async';

/**
 * One list of requests for one filter: a button per request (its subject) opens it in a dialog; closing
 * the dialog returns the focus to that button. Marking one answered shows in its row at once.
 */
export function RequestList({ filter }: { filter: RequestFilter }) {
  const t = useWords();
  const { api, hosted } = useOffice();
  const load = useCallback((cursor: string | null) => api.requests(filter, cursor), [api, filter]);
  const list = usePaged(load);
  const [openId, setOpenId] = useState<string | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const open = list.rows?.find((row) => row.id === openId) ?? null;
  // Once the dialog has gone, the focus goes back to the request it was opened from.
  useEffect(() => {
    if (openId === null) opener.current?.focus();
  }, [openId]);
  const changed = (request: OfficeRequest) => list.update((row) => (row.id === request.id ? request : row));

  return (
    <Stack gap={3}>
      <LiveStatus>{listStatus(t, list, 'requests.none', 'requests.shown', 'requests.shown-more')}</LiveStatus>
      <Problem error={list.error} hosted={hosted} />
      {list.rows?.length ? (
        <Stack as="ul" gap={2} aria-label={t('requests.list')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {list.rows?.map((request) => (
            <Card as="li" key={request.id} padding={3} radius={2} border tone={request.status === 'new' ? 'caution' : 'default'}>
              <Stack gap={3}>
                <Box>
                  <Button
                    mode="bleed"
                    padding={1}
                    text={request.subject}
                    onClick={(event) => {
                      opener.current = event.currentTarget;
                      setOpenId(request.id);
                    }}
                  />
                </Box>
                <RequestMeta request={request} />
              </Stack>
            </Card>
          ))}
        </Stack>
      ) : null}
      <LoadMore next={list.next} busy={list.busy} label={t('requests.load-more')} onMore={list.more} />
      {open ? <RequestDetail request={open} onChanged={changed} onClose={() => setOpenId(null)} /> : null}
    </Stack>
  );
}
