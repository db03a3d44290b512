import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';

import { getLocalPath, getSubscriptionCopy } from '@/lib/content';
import { LINK_PAGE_WORDS, type LinkKind } from '@/lib/forms/subscription-copy';
import { linkResultPath, TOKEN_PARAM } from '@/lib/shared/public-pages';
import { isToken } from '@/lib/forms/validation';
import type { LangAttrs } from '@/lib/shared/text-language';
import type { Sentence } from '@/lib/shared/tokens';

import { secondaryAction } from '../../_components/status-page';
import { LinkForm } from './link-form';
import { pageLanguage, type LanguageParams } from './page-language';
import { SentenceText } from './sentence';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The subscription's pages are for their one reader: kept out of search engines, their links not followed. */
export const NOT_INDEXED: Metadata['robots'] = { index: false, follow: false };

export async function linkPageMetadata(kind: LinkKind, props: LanguageParams): Promise<Metadata> {
  const { words } = await getSubscriptionCopy((await pageLanguage(props)).tag);
  return { title: words[LINK_PAGE_WORDS[kind].heading], robots: NOT_INDEXED };
}

type FrameProps = { heading: string; text: Sentence; lang?: LangAttrs; children: ReactNode };

/**
 * The frame of every subscription page: its heading and text, centred, and what follows them. `lang`: the
 * default language's attributes where the words are in it on a page in another.
 */
export function SubscriptionFrame({ heading, text, lang, children }: FrameProps) {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-20">
      <div className="w-full max-w-md text-center">
        <h1 {...lang} className="text-3xl font-bold tracking-tight sm:text-4xl">
          {heading}
        </h1>
        <p {...lang} className="mt-4 text-muted">
          <SentenceText sentence={text} />
        </p>
        {children}
      </div>
    </div>
  );
}

/** The way back from an answer. */
export const HomeButton = ({ label, href, lang }: { label: string; href: string; lang?: LangAttrs }) => (
  <a {...lang} href={href} className={`mt-8 inline-block ${secondaryAction}`}>
    {label}
  </a>
);

/**
 * The page a link opens, read per request with its token in it (no page is kept per token) and sent
 * whole; a token the database could not have made is answered at once, without a button.
 */
export async function LinkPage({ kind, searchParams, language }: { kind: LinkKind; searchParams: SearchParams; language: string }) {
  const [params, copy] = await Promise.all([searchParams, getSubscriptionCopy(language)]);
  const token = params[TOKEN_PARAM];
  if (typeof token !== 'string' || !isToken(token)) redirect(await getLocalPath(language, linkResultPath('invalid')));
  const words = LINK_PAGE_WORDS[kind];
  return (
    <SubscriptionFrame heading={copy.words[words.heading]} text={copy.sentences[words.intro]} lang={copy.lang}>
      <LinkForm kind={kind} token={token} copy={copy.words} lang={copy.lang} language={language} />
    </SubscriptionFrame>
  );
}
