import { Suspense } from 'react';

import { LinkPage, linkPageMetadata } from '../../_components/link-page';

export const generateMetadata = () => linkPageMetadata('confirm');

/** The confirmation email's link: a button confirms the address (supabase/migrations/*_double_opt_in.sql). */
export default function ConfirmPage({ searchParams }: PageProps<'/subscription/confirm'>) {
  return (
    <Suspense>
      <LinkPage kind="confirm" searchParams={searchParams} />
    </Suspense>
  );
}
