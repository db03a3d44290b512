'use client';

import { useEffect } from 'react';

import { ErrorBody } from '../../_components/status-page';
import { useErrorCopy } from '../_components/error-copy';

/** A page of the site failed to render or threw in the browser: the header and footer stay, with a way on. */
export default function SiteError({ error, retry }: { error: unknown; retry: () => void }) {
  const copy = useErrorCopy();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return <ErrorBody copy={copy} retry={retry} />;
}
