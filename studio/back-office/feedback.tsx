import { Box, Card, Stack, Text } from '@sanity/ui';
import type { ReactNode } from 'react';

import { OfficeError } from './api';
import { useWords, type Words } from './i18n';

/**
 * How the tool tells the editor what happened: a failure in words they can act on (role "alert", read
 * out at once), and a status line that screen readers announce when it changes (role "status").
 */

const when = (iso: string) => new Date(iso).toLocaleTimeString();

/** What went wrong, and what to do: sign in again, ask for a role, use the tunnel, try again. */
export function problemText(t: Words, error: unknown, hosted: boolean): { text: string; detail: string | null } {
  if (!(error instanceof OfficeError)) return { text: t('error.failed', { status: '?' }), detail: String(error) };
  const detail = error.message ? t('error.server-said', { detail: error.message }) : null;
  switch (error.kind) {
    case 'no-token':
      return { text: t('error.no-token'), detail: null };
    case 'forbidden':
      return { text: t(hosted ? 'error.forbidden.hosted' : 'error.forbidden.local'), detail };
    case 'busy':
      return { text: error.busyUntil ? t('error.busy-until', { time: when(error.busyUntil) }) : t('error.busy'), detail: null };
    case 'invalid':
      return { text: t('error.invalid', { detail: error.message }), detail: null };
    case 'failed':
      return { text: t('error.failed', { status: error.status ?? '?' }), detail };
    default:
      return { text: t(`error.${error.kind}`), detail };
  }
}

/** A failure, or nothing when there is none. */
export function Problem({ error, hosted }: { error: unknown; hosted: boolean }) {
  const t = useWords();
  if (!error) return null;
  const { text, detail } = problemText(t, error, hosted);
  return (
    <Card padding={3} radius={2} tone="critical" border role="alert">
      <Stack gap={3}>
        <Text size={1}>{text}</Text>
        {detail ? (
          <Text size={1} muted>
            {detail}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** What a paged list says of itself: loading, empty, or how many rows it shows (and whether there are more). */
export function listStatus(
  t: Words,
  list: { rows: readonly unknown[] | null; busy: boolean; next?: string | null },
  none: string,
  shown: string,
  more = shown,
): string {
  if (!list.rows) return list.busy ? t('common.loading') : '';
  const count = list.rows.length;
  return count === 0 ? t(none) : t(list.next ? more : shown, { count });
}

/** Always rendered, so that a change of its words is announced; empty while there is nothing to say. */
export function LiveStatus({ children, label }: { children?: ReactNode; label?: string }) {
  return (
    <Box role="status" aria-label={label}>
      {typeof children === 'string' ? children && <Text size={1}>{children}</Text> : children}
    </Box>
  );
}
