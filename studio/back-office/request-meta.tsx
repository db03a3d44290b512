import { Flex, Text } from '@sanity/ui';

import type { OfficeRequest } from '@/lib/shared/back-office';

import { named, useWords } from './i18n';
import { LanguageTag, StatusBadge, When } from './parts';

/** What a request is besides its words: from whom, its type, its language, where it stands, when it came. */
export function RequestMeta({ request }: { request: OfficeRequest }) {
  const t = useWords();
  return (
    <Flex gap={3} wrap="wrap" align="center">
      <Text size={1}>{t('requests.from', { email: request.email })}</Text>
      <Text size={1} muted>
        {named(t, 'type', request.type)}
      </Text>
      <Text size={1}>
        <LanguageTag tag={request.language} />
      </Text>
      <StatusBadge status={request.status} />
      <Text size={1} muted>
        <When iso={request.createdAt} />
      </Text>
    </Flex>
  );
}
