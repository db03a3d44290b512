'use client';

import { createContext, use, type ReactNode } from 'react';

import { ERROR_DEFAULTS, NOT_FOUND_DEFAULTS, type ErrorCopy, type NotFoundCopy } from '@/lib/content/status-copy';
import { ROUTES } from '@/lib/shared/public-pages';
import type { LangAttrs } from '@/lib/shared/text-language';

import { ErrorBody, NotFoundBody, type StatusLinks } from '../../_components/status-page';

/**
 * The error and 404 pages' words and links, in the page's language, handed down by the layout (which has
 * read Site settings) to the boundaries: error.tsx is a client component that cannot fetch, and
 * not-found.tsx is given no params to know the language by. Outside the layout: the defaults.
 */
type StatusCopy = {
  error: ErrorCopy;
  notFound: NotFoundCopy;
  links: StatusLinks;
  /** Set on words in the default language where the page's has none yet. */
  langOf?: { error?: LangAttrs; notFound?: LangAttrs };
};

const StatusCopyContext = createContext<StatusCopy>({
  error: ERROR_DEFAULTS,
  notFound: NOT_FOUND_DEFAULTS,
  links: { home: ROUTES.home, support: ROUTES.support },
});

export function StatusCopyProvider({ children, ...copy }: StatusCopy & { children: ReactNode }) {
  return <StatusCopyContext value={copy}>{children}</StatusCopyContext>;
}

/** The 404 page's body in the layout's language. */
export function LanguageNotFound() {
  const { notFound, links, langOf } = use(StatusCopyContext);
  return <NotFoundBody copy={notFound} links={links} lang={langOf?.notFound} />;
}

/** The error page's body in the layout's language. */
export function LanguageError({ retry }: { retry: () => void }) {
  const { error, links, langOf } = use(StatusCopyContext);
  return <ErrorBody copy={error} retry={retry} links={links} lang={langOf?.error} />;
}
