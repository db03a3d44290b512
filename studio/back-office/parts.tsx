import { Badge, Button, Flex, Inline, Text } from '@sanity/ui';
import { useCurrentLocale } from 'sanity';

import type { OfficeSubscriber } from '@/lib/shared/back-office';
import { ownName } from '@/lib/shared/languages';

import { named, useWords } from './i18n';
import { useOffice } from './office';

/** Small pieces every view shows: a language, a moment, a "Load more". */

/**
 * Language `tag` as the site names it (Site settings), else in itself, with its tag: "Español (es)". The
 * name is marked in its language, so a screen reader says it as a speaker would. Inline: put it in a Text.
 */
export function LanguageTag({ tag: stored }: { tag: string }) {
  const { languages, defaultLanguage } = useOffice();
  const t = useWords();
  // The store keeps '' for the site's default language.
  const tag = stored || defaultLanguage;
  if (!tag) return <>{t('common.default-language')}</>;
  const name = languages.find((language) => language.tag === tag)?.name ?? ownName(tag) ?? tag;
  return (
    <span data-language={tag}>
      <span lang={tag}>{name}</span> ({tag})
    </span>
  );
}

export function useFormatWhen(): (iso: string | null) => string {
  const { id } = useCurrentLocale();
  const t = useWords();
  const format = new Intl.DateTimeFormat(id, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso) => (iso ? format.format(new Date(iso)) : t('common.none'));
}

/** A moment, in the Studio's language, machine-readable too. */
export function When({ iso }: { iso: string | null }) {
  const formatWhen = useFormatWhen();
  return iso ? <time dateTime={iso}>{formatWhen(iso)}</time> : <>{formatWhen(null)}</>;
}

/** The next page of a keyset list, while there is one. */
export function LoadMore({ next, busy, label, onMore }: { next: string | null; busy: boolean; label: string; onMore: () => void }) {
  if (!next) return null;
  return (
    <Inline>
      <Button mode="ghost" text={label} loading={busy} disabled={busy} onClick={onMore} />
    </Inline>
  );
}

/** A status the store names, as a badge: new requests and failed emails stand out. */
export function StatusBadge({ status, group = 'status' }: { status: string; group?: 'status' | 'kind' | 'action' }) {
  const t = useWords();
  const tone = status === 'new' || status === 'failed' ? 'caution' : status === 'answered' || status === 'sent' ? 'positive' : 'default';
  return <Badge tone={tone}>{named(t, group, status)}</Badge>;
}

/** A subscription: where it stands, its language, when it began and was confirmed. */
export function SubscriptionLine({ subscriber }: { subscriber: OfficeSubscriber }) {
  const t = useWords();
  return (
    <Flex gap={3} align="center" wrap="wrap">
      <Text size={1}>{named(t, 'status', subscriber.status)}</Text>
      <Text size={1}>
        <LanguageTag tag={subscriber.language} />
      </Text>
      <Text size={1} muted>
        {t('subscribers.subscribed')}: <When iso={subscriber.createdAt} /> · {t('subscribers.confirmed')}:{' '}
        <When iso={subscriber.confirmedAt} />
      </Text>
    </Flex>
  );
}
