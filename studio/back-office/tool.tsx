import { Box, Button, Card, Container, Flex, Spinner, Stack, Text } from '@sanity/ui';
import { useMemo } from 'react';
import { useProjectId, type Tool } from 'sanity';

import { officeApi } from './api';
import { LiveStatus, Problem } from './feedback';
import { useWords } from './i18n';
import { OfficeProvider } from './office';
import { useSiteLanguages } from './site-languages';
import { useLoad } from './use-async';
import { Views } from './views';

/** Set in sanity.config.ts: whether this Studio edits a Sanity project (its editors sign in) or the local lake. */
export type BackOfficeOptions = { hosted: boolean };

/**
 * The back office tab: first asks the server who the editor is (GET me), which is the check every other
 * call repeats; until it admits them, the tool shows why not and nothing else.
 */
export function BackOfficeTool({ tool }: { tool: Tool<BackOfficeOptions> }) {
  const t = useWords();
  const hosted = tool.options?.hosted ?? false;
  const projectId = useProjectId();
  const api = useMemo(() => officeApi(hosted ? { hosted: true, projectId } : { hosted: false }), [hosted, projectId]);
  const me = useLoad(api.me);
  const site = useSiteLanguages();
  const office = useMemo(
    () =>
      me.value ? { api, hosted, me: me.value, languages: site?.languages ?? [], defaultLanguage: site?.defaultLanguage ?? null } : null,
    [api, hosted, me.value, site],
  );

  return (
    <Card height="fill" overflow="auto" padding={4} as="section" aria-label={tool.title}>
      <Container width={3}>
        <Stack gap={4}>
          <Flex align="center" justify="space-between" gap={3} wrap="wrap">
            <Text as="h1" size={3} weight="semibold">
              {tool.title}
            </Text>
            {office ? (
              <Text size={1} muted>
                {t('tool.signed-in', { name: office.me.officer.name })}
              </Text>
            ) : null}
          </Flex>
          {office ? (
            <OfficeProvider value={office}>
              <Views admin={office.me.admin} />
            </OfficeProvider>
          ) : me.busy ? (
            <Flex align="center" gap={3}>
              <Spinner />
              <LiveStatus>{t('tool.loading')}</LiveStatus>
            </Flex>
          ) : (
            <Stack gap={3}>
              <Problem error={me.error} hosted={hosted} />
              <Box>
                <Button mode="ghost" text={t('tool.retry')} onClick={me.reload} />
              </Box>
            </Stack>
          )}
        </Stack>
      </Container>
    </Card>
  );
}
