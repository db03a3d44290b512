import { Stack } from '@sanity/ui';

import type { Told } from '@/lib/shared/back-office';

import { AddressForm } from './fields';
import { LiveStatus, Problem } from './feedback';
import { useWords } from './i18n';
import { useOffice } from './office';
import { useFormatWhen } from './parts';
import { useAction } from './use-async';

/**
 * "Was this address told about this version?", for an address someone presents: the server answers from
 * the address, or from its keyed hash where the person has been erased since.
 */
export function ToldCheck({ date }: { date: string }) {
  const t = useWords();
  const formatWhen = useFormatWhen();
  const { api, hosted } = useOffice();
  const check = useAction((email: string) => api.told(date, email));
  const answer = ({ told, sentAt, erased }: Told) =>
    told ? t(erased ? 'notices.was-told-erased' : 'notices.was-told', { date, when: formatWhen(sentAt) }) : t('notices.not-told', { date });
  return (
    <Stack gap={3}>
      <AddressForm
        label={t('notices.check-address')}
        button={t('notices.check-button')}
        formLabel={t('notices.check')}
        busy={check.busy}
        onSubmit={(email) => void check.start(email)}
      />
      <LiveStatus>{check.value ? answer(check.value) : ''}</LiveStatus>
      <Problem error={check.error} hosted={hosted} />
    </Stack>
  );
}
