import { Suspense } from 'react';

import { LinkPage, linkPageMetadata } from '../../_components/link-page';

export const generateMetadata = () => linkPageMetadata('unsubscribe');

/** Every email's unsubscribe link: a button unsubscribes the address; mail clients post to ./one-click instead. */
export default function UnsubscribePage({ searchParams }: PageProps<'/subscription/unsubscribe'>) {
  return (
    <Suspense>
      <LinkPage kind="unsubscribe" searchParams={searchParams} />
    </Suspense>
  );
}
