'use client';

import { useEffect } from 'react';

import { LanguageError } from '../_components/status-copy';

/** A page of the site failed to render or threw in the browser: the header and footer stay, with a way on. */
export default function SiteError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return <LanguageError retry={retry} />;
}
