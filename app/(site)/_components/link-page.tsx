import type { Metadata } from 'next';

import { getSettings, getSubscriptionCopy } from '@/lib/content';
import { LINK_PAGE_WORDS, type LinkKind } from '@/lib/content/subscription-copy';
import { TOKEN_PARAM } from '@/lib/public-pages';
import { isToken } from '@/lib/support/validation';

import { LinkForm } from './link-form';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The pages of the emails' links are for their one reader: kept out of search engines, their links not followed. */
export async function linkPageMetadata(kind: LinkKind): Promise<Metadata> {
  const copy = await getSubscriptionCopy();
  return { title: copy[LINK_PAGE_WORDS[kind].heading], robots: { index: false, follow: false } };
}

/** The token from the link, read per request (so no page is kept per token), and the page's words. */
export async function LinkPage({ kind, searchParams }: { kind: LinkKind; searchParams: SearchParams }) {
  const [params, copy, settings] = await Promise.all([searchParams, getSubscriptionCopy(), getSettings()]);
  const raw = params[TOKEN_PARAM];
  const token = typeof raw === 'string' && isToken(raw) ? raw : null;
  return <LinkForm kind={kind} token={token} copy={copy} messages={settings.messages} homeLabel={settings.chrome.backHome} />;
}
