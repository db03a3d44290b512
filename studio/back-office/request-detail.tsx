import { Box, Button, Dialog, Flex, Stack, Text } from '@sanity/ui';

import type { OfficeRequest } from '@/lib/shared/back-office';

import { LiveStatus, Problem } from './feedback';
import { useWords } from './i18n';
import { useOffice } from './office';
import { useFormatWhen } from './parts';
import { RequestMeta } from './request-meta';
import { useAction } from './use-async';

/**
 * A reply in the editor's own mail program, to the address and subject of the request. The @ stays as
 * is (RFC 6068 allows it): a mail program that does not decode %40 would otherwise address no one.
 */
const replyLink = (request: OfficeRequest, subject: string) =>
  `mailto:${request.email.split('@').map(encodeURIComponent).join('@')}?subject=${encodeURIComponent(subject)}`;

type Props = { request: OfficeRequest; onChanged: (request: OfficeRequest) => void; onClose: () => void };

/**
 * One request in full, in a dialog named by its subject: its message (marked in its language, so it is
 * read out in it), who answered it and when, a reply link, and the button to mark it answered or reopen it.
 */
export function RequestDetail({ request, onChanged, onClose }: Props) {
  const t = useWords();
  const formatWhen = useFormatWhen();
  const { api, hosted } = useOffice();
  const mark = useAction(async (answered: boolean) => {
    const changed = await api.mark(request.id, answered);
    onChanged(changed);
    return changed;
  });
  const answered = request.status === 'answered';
  const footer = (
    <Flex gap={2} padding={3} justify="flex-end" wrap="wrap">
      <Button
        as="a"
        mode="ghost"
        href={replyLink(request, t('requests.reply-subject', { subject: request.subject }))}
        text={t('requests.reply')}
      />
      <Button
        tone={answered ? 'default' : 'positive'}
        text={t(answered ? 'requests.reopen' : 'requests.mark-answered')}
        loading={mark.busy}
        disabled={mark.busy}
        onClick={() => void mark.start(!answered)}
      />
    </Flex>
  );

  return (
    <Dialog id="back-office-request" header={request.subject} onClose={onClose} width={2} footer={footer}>
      <Box padding={4}>
        <Stack gap={4}>
          <RequestMeta request={request} />
          {answered && request.answeredAt ? (
            <Text size={1}>
              {t('requests.answered-by', { who: request.answeredBy ?? t('common.none'), when: formatWhen(request.answeredAt) })}
            </Text>
          ) : null}
          <Stack gap={2}>
            <Text size={1} weight="medium" muted>
              {t('requests.message')}
            </Text>
            <Text size={2} lang={request.language}>
              <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{request.message}</span>
            </Text>
          </Stack>
          <LiveStatus>
            {mark.value ? t(mark.value.status === 'answered' ? 'requests.marked-answered' : 'requests.reopened') : ''}
          </LiveStatus>
          <Problem error={mark.error} hosted={hosted} />
        </Stack>
      </Box>
    </Dialog>
  );
}
