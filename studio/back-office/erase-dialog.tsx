import { Box, Button, Dialog, Flex, Stack, Text } from '@sanity/ui';

import { useWords } from './i18n';

/**
 * The confirmation an erase needs: it names the address and what goes. The dialog gives the focus to its
 * first control, its close button, and Escape cancels, so no key pressed by habit erases anyone.
 */
export function EraseDialog({ address, onConfirm, onCancel }: { address: string; onConfirm: () => void; onCancel: () => void }) {
  const t = useWords();
  return (
    <Dialog
      id="back-office-erase"
      header={t('person.erase-title')}
      onClose={onCancel}
      width={1}
      footer={
        <Flex gap={2} padding={3} justify="flex-end">
          <Button mode="ghost" text={t('person.erase-cancel')} onClick={onCancel} />
          <Button tone="critical" text={t('person.erase-confirm')} onClick={onConfirm} />
        </Flex>
      }
    >
      <Box padding={4}>
        <Stack gap={3}>
          <Text size={2} weight="semibold">
            {address}
          </Text>
          <Text size={1}>{t('person.erase-explain')}</Text>
        </Stack>
      </Box>
    </Dialog>
  );
}
