'use client';

import { createContext, use, type ReactNode } from 'react';

import { ERROR_DEFAULTS, type ErrorCopy } from '@/lib/content/status-copy';

/**
 * The error page's words, handed down by the layout (which has read Site settings) to the error
 * boundary, a client component that cannot fetch. Outside the layout: the defaults.
 */
const ErrorCopyContext = createContext<ErrorCopy>(ERROR_DEFAULTS);

export function ErrorCopyProvider({ copy, children }: { copy: ErrorCopy; children: ReactNode }) {
  return <ErrorCopyContext value={copy}>{children}</ErrorCopyContext>;
}

export const useErrorCopy = (): ErrorCopy => use(ErrorCopyContext);
