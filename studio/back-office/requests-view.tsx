import { Card, Flex, Grid, Stack } from '@sanity/ui';
import { useMemo, useState } from 'react';

import { REQUEST_STATUSES, type RequestFilter } from '@/lib/shared/back-office';
import { REQUEST_TYPES } from '@/lib/forms/request-types';

import { AddressForm, ChoiceField } from './fields';
import { named, useWords } from './i18n';
import { useOffice } from './office';
import { RequestList } from './request-list';

type Filters = { type: string; language: string; status: string };

/** Only the filters chosen: an empty choice is "All". */
const toFilter = ({ type, language, status }: Filters, email: string, defaultLanguage: string | null): RequestFilter => ({
  ...(type ? { type } : {}),
  // The store keeps '' for the default language.
  ...(language ? { language: language === defaultLanguage ? '' : language } : {}),
  ...(status ? { status: status as RequestFilter['status'] } : {}),
  ...(email ? { email } : {}),
});

/**
 * Support requests, newest first, by type, language and status, or by the start of an address. A new
 * filter starts a new list (keyed by it), from the first page.
 */
export function RequestsView() {
  const t = useWords();
  const { languages, defaultLanguage } = useOffice();
  const [filters, setFilters] = useState<Filters>({ type: '', language: '', status: '' });
  const [email, setEmail] = useState('');
  // One object per choice: a new one would make the list ask again from its first page.
  const filter = useMemo(() => toFilter(filters, email, defaultLanguage), [filters, email, defaultLanguage]);
  const choose = (key: keyof Filters) => (value: string) => setFilters((previous) => ({ ...previous, [key]: value }));
  return (
    <Stack gap={4}>
      <Card padding={3} radius={2} border>
        <Stack gap={4}>
          <Grid gridTemplateColumns={[1, 3]} gap={3} role="group" aria-label={t('requests.filters')}>
            <ChoiceField
              label={t('requests.type')}
              all={t('common.all')}
              choices={REQUEST_TYPES.map((value) => ({ value, title: named(t, 'type', value) }))}
              value={filters.type}
              onChange={choose('type')}
            />
            <ChoiceField
              label={t('requests.language')}
              all={t('common.all')}
              choices={languages.map(({ tag, name }) => ({ value: tag, title: `${name} (${tag})` }))}
              value={filters.language}
              onChange={choose('language')}
            />
            <ChoiceField
              label={t('requests.status')}
              all={t('common.all')}
              choices={REQUEST_STATUSES.map((value) => ({ value, title: named(t, 'status', value) }))}
              value={filters.status}
              onChange={choose('status')}
            />
          </Grid>
          <Flex>
            <AddressForm
              search
              label={t('requests.search')}
              hint={t('requests.search-hint')}
              button={t('requests.search-button')}
              formLabel={t('requests.search')}
              busy={false}
              onSubmit={setEmail}
            />
          </Flex>
        </Stack>
      </Card>
      <RequestList key={JSON.stringify(filter)} filter={filter} />
    </Stack>
  );
}
