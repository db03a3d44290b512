import { Box, Button, Card, Flex, Stack } from '@sanity/ui';
import { useRef, useState } from 'react';

import type { Erased, NothingHeld, PersonData } from '@/lib/shared/back-office';

import { isNothingHeld } from './api';
import { EraseDialog } from './erase-dialog';
import { AddressForm } from './fields';
import { LiveStatus, Problem } from './feedback';
import { useWords, type Words } from './i18n';
import { useOffice } from './office';
import { PersonRecord } from './person-record';
import { useAction } from './use-async';

/** What the last action did, for the status line: an erase, a look that found nothing, an export. */
function outcomeText(
  t: Words,
  erased: Erased | NothingHeld | undefined,
  person: PersonData | NothingHeld | undefined,
  exported?: boolean,
): string {
  if (erased && isNothingHeld(erased)) return t('person.erased-nothing');
  if (erased) {
    const total = Object.values(erased.rows).reduce((sum, n) => sum + n, 0);
    const detail = Object.entries(erased.rows)
      .map(([table, n]) => `${table}: ${n}`)
      .join(', ');
    return t('person.erased', { rows: total, detail });
  }
  if (person && isNothingHeld(person)) return t('person.nothing-held');
  return exported ? t('person.exported') : '';
}

/**
 * What the view does, apart from how it looks: one address at a time is looked at, exported or erased;
 * looking at another forgets what was done to the last. An erase that removed something clears the record.
 */
function usePerson(onErased: () => void) {
  const { api } = useOffice();
  const [address, setAddress] = useState('');
  const person = useAction(api.person);
  const exported = useAction(async (email: string) => {
    await api.exportPerson(email);
    return true;
  });
  const erase = useAction(api.erase);
  const show = (email: string) => {
    setAddress(email);
    erase.clear();
    exported.clear();
    void person.start(email);
  };
  const eraseNow = async () => {
    if (await erase.start(address)) person.clear();
    onErased();
  };
  return { address, person, exported, erase, show, eraseNow };
}

/**
 * A parent's request: everything the store holds for one address (each look a read the server logs),
 * exported as JSON, or erased after a confirmation. After an erase the focus moves to what it did.
 */
export function PersonView() {
  const t = useWords();
  const { hosted } = useOffice();
  const [confirming, setConfirming] = useState(false);
  const outcome = useRef<HTMLDivElement>(null);
  const { address, person, exported, erase, show, eraseNow } = usePerson(() => outcome.current?.focus());
  const held = person.value && !isNothingHeld(person.value) ? person.value : null;

  return (
    <Stack gap={4}>
      <Card padding={3} radius={2} border>
        <AddressForm
          label={t('person.address')}
          button={t('person.show')}
          formLabel={t('person.lookup')}
          busy={person.busy}
          onSubmit={show}
        />
      </Card>
      <Box ref={outcome} tabIndex={-1}>
        <LiveStatus>{outcomeText(t, erase.value, person.value, exported.value)}</LiveStatus>
      </Box>
      <Problem error={person.error ?? exported.error ?? erase.error} hosted={hosted} />
      {held ? (
        <Stack gap={4}>
          <Flex gap={2} wrap="wrap">
            <Button
              mode="ghost"
              text={t('person.export')}
              loading={exported.busy}
              disabled={exported.busy}
              onClick={() => void exported.start(address)}
            />
            <Button
              tone="critical"
              mode="ghost"
              text={t('person.erase')}
              loading={erase.busy}
              disabled={erase.busy}
              onClick={() => setConfirming(true)}
            />
          </Flex>
          <PersonRecord person={held} />
        </Stack>
      ) : null}
      {confirming ? (
        <EraseDialog
          address={address}
          onConfirm={() => {
            setConfirming(false);
            void eraseNow();
          }}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </Stack>
  );
}
